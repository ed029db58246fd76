// SPDX-License-Identifier: MIT
#include "broker/servicebus/sql_like_pattern.h"

#include <array>
#include <cstdint>
#include <vector>

namespace relaydesk {

namespace {

using Word = std::uint64_t;
using Bits = std::vector<Word>;

// The pattern as states: state j has taken the pattern's first j items.
// Item j is a byte, any byte (_) or a run (%; consecutive runs are one).
struct States {
    std::size_t items = 0;
    std::size_t words = 0;
    Bits runs;                       // items that are %
    Bits anyByte;                    // items that are _
    std::array<int, 256> byteSlot{};   // a literal byte's row in `bytes`, -1 for none
    std::vector<Bits> bytes;          // the items that are that literal byte

    void set(Bits &bits, std::size_t item) const { bits[item / 64] |= Word(1) << (item % 64); }
};

States statesOf(std::string_view pattern, char escape)
{
    struct Item {
        enum { Byte, AnyByte, Run } kind;
        unsigned char byte;
    };
    std::vector<Item> items;
    for (std::size_t p = 0; p < pattern.size(); ++p) {
        const auto c = static_cast<unsigned char>(pattern[p]);
        if (escape != 0 && pattern[p] == escape && p + 1 < pattern.size())
            items.push_back({Item::Byte, static_cast<unsigned char>(pattern[++p])});
        else if (c == '%' && !(!items.empty() && items.back().kind == Item::Run))
            items.push_back({Item::Run, 0});
        else if (c == '_')
            items.push_back({Item::AnyByte, 0});
        else if (c != '%')
            items.push_back({Item::Byte, c});
    }
    States states;
    states.items = items.size();
    states.words = (items.size() + 1 + 63) / 64;   // states 0..items
    states.runs.assign(states.words, 0);
    states.anyByte.assign(states.words, 0);
    states.byteSlot.fill(-1);
    for (std::size_t j = 0; j < items.size(); ++j) {
        if (items[j].kind == Item::Run) {
            states.set(states.runs, j);
        } else if (items[j].kind == Item::AnyByte) {
            states.set(states.anyByte, j);
        } else {
            int &slot = states.byteSlot[items[j].byte];
            if (slot < 0) {
                slot = static_cast<int>(states.bytes.size());
                states.bytes.emplace_back(states.words, 0);
            }
            states.set(states.bytes[static_cast<std::size_t>(slot)], j);
        }
    }
    return states;
}

// to |= (from & mask) moved one state on.
void advanceInto(Bits &to, const Bits &from, const Bits &mask)
{
    Word carry = 0;
    for (std::size_t i = 0; i < from.size(); ++i) {
        const Word taken = from[i] & mask[i];
        to[i] |= (taken << 1) | carry;
        carry = taken >> 63;
    }
}

} // namespace

bool sqlLikeMatches(std::string_view text, std::string_view pattern, char escape)
{
    const States states = statesOf(pattern, escape);
    Bits current(states.words, 0);
    Bits next(states.words, 0);
    Bits taking(states.words, 0);   // the items the byte at hand may be taken by
    states.set(current, 0);
    advanceInto(current, current, states.runs);   // a run may take nothing
    for (const char c : text) {
        const int slot = states.byteSlot[static_cast<unsigned char>(c)];
        bool any = false;
        for (std::size_t i = 0; i < states.words; ++i) {
            taking[i] = states.anyByte[i] | (slot < 0 ? 0 : states.bytes[static_cast<std::size_t>(slot)][i]);
            next[i] = current[i] & states.runs[i];   // a run takes the byte and stays
        }
        advanceInto(next, current, taking);
        advanceInto(next, next, states.runs);   // a run reached may take nothing
        for (const Word word : next)
            any = any || word != 0;
        if (!any)
            return false;
        current.swap(next);
    }
    return (current[states.items / 64] >> (states.items % 64)) & 1;
}

} // namespace relaydesk
