// SPDX-License-Identifier: MIT
#include "widgets/column_width.h"

#include <QHeaderView>
#include <QTableView>

#include <algorithm>

namespace relaydesk {

void fitColumnTo(QTableView &table, int column, const QString &sample, int decoration)
{
    const QString header = table.model() ? table.model()->headerData(column, Qt::Horizontal).toString() : QString();
    const QFontMetrics values = table.fontMetrics();
    const QFontMetrics headers = table.horizontalHeader()->fontMetrics();
    // Padding for the cell margins, and in the header for a sort indicator where the table sorts.
    const int indicator = table.isSortingEnabled() ? 2 : 0;
    const int width = std::max(decoration + values.horizontalAdvance(sample) + values.averageCharWidth() * 2,
                               headers.horizontalAdvance(header) + headers.averageCharWidth() * (2 + indicator));
    table.horizontalHeader()->resizeSection(column, width);
}

} // namespace relaydesk
