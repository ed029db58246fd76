// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QTableView;

namespace relaydesk {

// Sizes `column` of `table` to hold `sample` (the widest value it usually
// shows) and its header text whole in the table's font, so a larger font
// widens the column instead of cutting its text; `decoration`: the pixels
// of an icon or swatch its cells draw before the text. GUI thread.
void fitColumnTo(QTableView &table, int column, const QString &sample, int decoration = 0);

} // namespace relaydesk
