// SPDX-License-Identifier: MIT
#pragma once
// Shared by the durability tests: starting durability_child (path from the
// DURABILITY_CHILD compile definition) with pipes on stdin/stdout, reading
// its lines, parsing its acknowledgements, and reading back what a database
// file holds after the child is gone.

#include "store/database.h"
#include "store/statement.h"

#include <QCryptographicHash>
#include <QFile>
#include <QString>
#include <QStringList>

#include <cerrno>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <csignal>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace relaydesk::durability {

// A running durability_child: its pid, the read end of its stdout and the
// write end of its stdin. Owned by the test; kill()/finish() reap it.
class ChildProcess final {
public:
    ChildProcess() = default;
    ChildProcess(const ChildProcess &) = delete;
    ChildProcess &operator=(const ChildProcess &) = delete;
    ~ChildProcess()
    {
        if (m_pid > 0) {
            ::kill(m_pid, SIGKILL);
            int status = 0;
            ::waitpid(m_pid, &status, 0);
        }
        closeStdin();
        if (m_out >= 0)
            ::close(m_out);
    }

    // Starts DURABILITY_CHILD with `args`; false (and a message) on failure.
    bool start(const QStringList &args, std::string *error)
    {
        int out[2];
        int in[2];
        if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(in, O_CLOEXEC) != 0) {
            *error = "pipe failed";
            return false;
        }
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
        posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
        std::vector<std::string> storage{DURABILITY_CHILD};
        for (const QString &arg : args)
            storage.push_back(arg.toStdString());
        std::vector<char *> argv;
        for (std::string &arg : storage)
            argv.push_back(arg.data());
        argv.push_back(nullptr);
        const int spawned = posix_spawn(&m_pid, DURABILITY_CHILD, &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        ::close(out[1]);
        ::close(in[0]);
        m_out = out[0];
        m_in = in[1];
        if (spawned != 0) {
            m_pid = -1;
            *error = std::string("posix_spawn ") + DURABILITY_CHILD + " failed: " + std::to_string(spawned);
            return false;
        }
        return true;
    }

    // The next whole line of the child's stdout (without '\n'); nullopt at EOF.
    std::optional<std::string> readLine()
    {
        for (;;) {
            const std::size_t end = m_buffer.find('\n');
            if (end != std::string::npos) {
                std::string line = m_buffer.substr(0, end);
                m_buffer.erase(0, end + 1);
                return line;
            }
            char chunk[4096];
            const ssize_t got = ::read(m_out, chunk, sizeof chunk);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                return std::nullopt; // a partial last line cannot happen: each line is one small write(2)
            m_buffer.append(chunk, std::size_t(got));
        }
    }

    void closeStdin()
    {
        if (m_in >= 0)
            ::close(m_in);
        m_in = -1;
    }

    void kill() { ::kill(m_pid, SIGKILL); }

    // Waits for the child to end; its waitpid status.
    int wait()
    {
        int status = 0;
        ::waitpid(m_pid, &status, 0);
        m_pid = -1;
        return status;
    }

private:
    pid_t m_pid = -1;
    int m_out = -1;
    int m_in = -1;
    std::string m_buffer;
};

inline QStringList words(const std::string &line)
{
    return QString::fromStdString(line).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

// One acknowledged send, as the child reported it.
struct Ack {
    bool fifo = false;
    int round = 0;
    int producer = 0;
    long counter = 0;
    std::string group;                 // FIFO
    std::int64_t sequenceNumber = -1;  // FIFO
    std::string messageId;

    // The body the child sent (without fill-mode padding).
    std::string body() const
    {
        std::string text = std::string(fifo ? "fifo" : "std") + " r=" + std::to_string(round) +
                           " p=" + std::to_string(producer) + " c=" + std::to_string(counter);
        return fifo ? text + " g=" + group : text;
    }
};

// "ack std R P C ID" / "ack fifo R P C G SEQ ID"; nullopt for any other line.
inline std::optional<Ack> parseAck(const std::string &line)
{
    const QStringList w = words(line);
    if (w.size() < 2 || w.at(0) != QLatin1String("ack"))
        return std::nullopt;
    Ack ack;
    ack.fifo = w.at(1) == QLatin1String("fifo");
    if (w.size() != (ack.fifo ? 8 : 6))
        return std::nullopt;
    ack.round = w.at(2).toInt();
    ack.producer = w.at(3).toInt();
    ack.counter = w.at(4).toLong();
    if (ack.fifo) {
        ack.group = w.at(5).toStdString();
        ack.sequenceNumber = w.at(6).toLongLong();
    }
    ack.messageId = w.last().toStdString();
    return ack;
}

// One row of the messages table.
struct StoredMessage {
    std::string queue;
    std::string messageId;
    std::string body;
    std::string group;
    std::int64_t sequenceNumber = -1;
};

// Every message of the database, in (queue, sequence number, row id) order.
// Fills `error` when the query fails.
inline std::vector<StoredMessage> storedMessages(Database &db, std::string *error)
{
    std::vector<StoredMessage> rows;
    auto query = db.prepare("SELECT q.name, m.message_id, m.body, coalesce(m.group_id, ''), "
                            "coalesce(m.sequence_number, -1) FROM messages m JOIN queues q ON q.id = m.queue_id "
                            "ORDER BY q.name, m.sequence_number, m.id");
    if (!query.ok()) {
        *error = query.status().toString();
        return rows;
    }
    for (;;) {
        auto step = query->step();
        if (!step.ok()) {
            *error = step.status().toString();
            return rows;
        }
        if (*step == Step::Done)
            return rows;
        rows.push_back(StoredMessage{query->columnText(0), query->columnText(1), query->columnText(2),
                                     query->columnText(3), query->columnInt64(4)});
    }
}

// A stored body without the '.' padding of fill mode.
inline std::string unpadded(const std::string &body)
{
    const std::size_t end = body.find_last_not_of('.');
    return end == std::string::npos ? std::string() : body.substr(0, end + 1);
}

// Empty when every ack is stored exactly once with its MessageId (and FIFO
// sequence number) and no body is stored twice; otherwise what is wrong.
inline std::string checkAcknowledged(const std::vector<StoredMessage> &stored, const std::vector<Ack> &acks)
{
    std::map<std::string, const StoredMessage *> byBody;
    for (const StoredMessage &message : stored) {
        if (!byBody.emplace(unpadded(message.body), &message).second)
            return "stored twice: " + unpadded(message.body);
    }
    for (const Ack &ack : acks) {
        const auto found = byBody.find(ack.body());
        if (found == byBody.end())
            return "acknowledged but not stored: " + ack.body();
        if (found->second->messageId != ack.messageId)
            return "stored with another MessageId: " + ack.body();
        if (ack.fifo && found->second->sequenceNumber != ack.sequenceNumber)
            return "stored with another SequenceNumber: " + ack.body();
    }
    return {};
}

// The SHA-256 of a file's bytes; empty when it does not exist.
inline QByteArray fileDigest(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex();
}

} // namespace relaydesk::durability
