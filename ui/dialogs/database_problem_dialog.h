// SPDX-License-Identifier: MIT
#pragma once

#include "host/broker_host.h"

#include <QDialog>

class QLabel;

namespace relaydesk {

// Says in plain words why a database could not be opened (in use by another
// Relaydesk, not a Relaydesk database, damaged, written by a newer version,
// cannot be created, ...) and offers the ways out: open another file, create
// a new one, or go on without a broker. It never changes the file it names.
// The choice is result(): OpenOther, CreateNew, or Rejected.
// Thread: GUI.
class DatabaseProblemDialog final : public QDialog {
    Q_OBJECT
public:
    enum Choice { OpenOther = 2, CreateNew = 3 };

    DatabaseProblemDialog(const QString &databasePath, const BrokerHostProblem &problem, QWidget *parent = nullptr);

    // The headline and explanation, for tests and screen readers.
    QString headline() const;
    QString explanation() const;

private:
    QLabel *m_headline = nullptr;
    QLabel *m_explanation = nullptr;
};

} // namespace relaydesk
