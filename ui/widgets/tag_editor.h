// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include <map>
#include <string>

class QTableWidget;

namespace relaydesk {

class FieldError;

// The tags of a queue or topic as an editable key/value table with Add and
// Remove; rows with an empty key are ignored. The baseline is what setTags()
// showed. GUI thread only; owns its child widgets.
class TagEditor final : public QWidget {
    Q_OBJECT
public:
    using Tags = std::map<std::string, std::string>;

    explicit TagEditor(QWidget *parent = nullptr);
    ~TagEditor() override;
    TagEditor(const TagEditor &) = delete;
    TagEditor &operator=(const TagEditor &) = delete;

    void setTags(const Tags &tags);   // also the baseline; never emits edited()
    Tags tags() const;
    const Tags &baseline() const { return m_baseline; }
    bool isModified() const { return tags() != m_baseline; }
    void showError(const QString &message);   // empty clears
    QTableWidget *table() const { return m_table; }
    QList<QWidget *> focusChain() const;

signals:
    void edited();

private:
    QTableWidget *m_table = nullptr;
    QWidget *m_add = nullptr;
    QWidget *m_remove = nullptr;
    FieldError *m_error = nullptr;
    Tags m_baseline;
    bool m_updating = false;
};

} // namespace relaydesk
