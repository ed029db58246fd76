// SPDX-License-Identifier: MIT
#pragma once

#include <QSplitter>

#include <functional>

namespace relaydesk {

// A splitter whose panes stand side by side while its width holds every
// pane's minimum width, and one above the other (each at its preferred
// height) when it does not: a page holding it never needs to scroll sideways,
// and no pane is squeezed below the width its labels and fields need.
// Its minimum width is the widest pane's, whatever the orientation; a user's
// drag still moves the handle within the panes' minimums. Thread: GUI.
class AdaptiveSplitter final : public QSplitter {
    Q_OBJECT
public:
    explicit AdaptiveSplitter(QWidget *parent = nullptr);

    // The width side by side needs: the panes' minimum widths (or the width
    // set for a pane below) and the handles.
    int sideBySideWidth() const;
    // Pane `index` needs `width()` beside the others (say, a pane that holds
    // an adaptive splitter of its own and should stay side by side inside).
    void setPaneWidth(int index, std::function<int()> width);
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    // A pane's minimum changed (a font, a form that grew): side by side again, or not.
    bool event(QEvent *event) override;

private:
    void orientFor(int width);

    QList<std::function<int()>> m_paneWidths; // by pane; empty: its minimum width
    QList<int> m_sideBySideSizes; // the last sizes side by side, back when there is room again
};

} // namespace relaydesk
