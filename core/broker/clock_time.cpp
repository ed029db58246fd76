// SPDX-License-Identifier: MIT
#include "clock_time.h"

#include <cstdio>

namespace relaydesk {

namespace {

// Reads exactly `count` digits at `pos`; false when they are not all digits.
bool readDigits(std::string_view text, std::size_t pos, std::size_t count, int &out)
{
    if (pos + count > text.size())
        return false;
    int value = 0;
    for (std::size_t i = pos; i < pos + count; ++i) {
        const char c = text[i];
        if (c < '0' || c > '9')
            return false;
        value = value * 10 + (c - '0');
    }
    out = value;
    return true;
}

} // namespace

std::string formatIso8601(ClockTime time)
{
    using namespace std::chrono;
    const sys_days day = floor<days>(time);
    const year_month_day date(day);
    const hh_mm_ss<milliseconds> clock(time - day);
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02u""T%02d:%02d:%02d.%03dZ", int(date.year()),
                  unsigned(date.month()), unsigned(date.day()), int(clock.hours().count()),
                  int(clock.minutes().count()), int(clock.seconds().count()), int(clock.subseconds().count()));
    return buffer;
}

std::optional<ClockTime> parseIso8601(std::string_view text)
{
    using namespace std::chrono;
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
    if (!readDigits(text, 0, 4, y) || text.size() < 19 || text[4] != '-' || !readDigits(text, 5, 2, mo) ||
        text[7] != '-' || !readDigits(text, 8, 2, d) || (text[10] != 'T' && text[10] != 't') ||
        !readDigits(text, 11, 2, h) || text[13] != ':' || !readDigits(text, 14, 2, mi) || text[16] != ':' ||
        !readDigits(text, 17, 2, s))
        return std::nullopt;
    const year_month_day date{year(y), month(unsigned(mo)), day(unsigned(d))};
    if (!date.ok() || h > 23 || mi > 59 || s > 59)
        return std::nullopt;

    std::size_t pos = 19;
    int64_t fractionMs = 0;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        std::size_t digits = 0;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
            if (digits < 3)
                fractionMs = fractionMs * 10 + (text[pos] - '0');
            ++digits;
            ++pos;
        }
        if (digits == 0 || digits > 9)
            return std::nullopt;
        for (std::size_t i = digits; i < 3; ++i)
            fractionMs *= 10;
    }

    int offsetMinutes = 0;
    if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
        ++pos;
    } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
        const int sign = text[pos] == '-' ? -1 : 1;
        int oh = 0, om = 0;
        if (!readDigits(text, pos + 1, 2, oh) || pos + 3 >= text.size() || text[pos + 3] != ':' ||
            !readDigits(text, pos + 4, 2, om) || oh > 23 || om > 59)
            return std::nullopt;
        offsetMinutes = sign * (oh * 60 + om);
        pos += 6;
    } else {
        return std::nullopt;
    }
    if (pos != text.size())
        return std::nullopt;

    const ClockTime local = ClockTime(sys_days(date)) + hours(h) + minutes(mi) + seconds(s) + milliseconds(fractionMs);
    return local - minutes(offsetMinutes);
}

} // namespace relaydesk
