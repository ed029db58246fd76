// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

namespace relaydesk {

// A coloured frame drawn over one input (red for an error, amber for a
// warning), so a validation issue shows at its field in every style and
// palette without restyling the input. It sets the input's dynamic property
// "policyIssue" ("error", "warning" or empty) for tests and style sheets. The
// marker is a child of the input (owned by it), ignores the mouse and follows
// the input's size. GUI thread only.
class FieldIssueMarker final : public QWidget {
    Q_OBJECT
public:
    // Marks `input` with `kind` ("error", "warning"; empty clears the mark)
    // and sets its tooltip to `tip`. Creates the marker on first use.
    static void mark(QWidget *input, const QString &kind, const QString &tip);

    ~FieldIssueMarker() override;
    FieldIssueMarker(const FieldIssueMarker &) = delete;
    FieldIssueMarker &operator=(const FieldIssueMarker &) = delete;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    explicit FieldIssueMarker(QWidget *input);
    void setKind(const QString &kind);

    QString m_kind;
};

} // namespace relaydesk
