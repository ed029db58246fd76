// SPDX-License-Identifier: MIT
// A driver for a libFuzzer target without libFuzzer (any compiler): runs the
// target on every file of the seed folders given as arguments, then on a
// fixed number of mutants of each seed (byte flips, inserts, deletions,
// duplicated runs, truncations) drawn from a fixed seed — the same inputs on
// every run, so CTest gets a deterministic check. The target aborts on a
// violation; this driver only feeds it.
//   fuzz_replay [--mutants N] FOLDER...
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

namespace {

using Bytes = std::vector<std::uint8_t>;

void run(const Bytes &input)
{
    LLVMFuzzerTestOneInput(input.data(), input.size());
}

Bytes mutate(Bytes input, std::mt19937_64 &random)
{
    const auto pick = [&](std::size_t bound) { return bound == 0 ? 0 : std::size_t(random() % bound); };
    const int edits = 1 + int(random() % 4);
    for (int edit = 0; edit < edits; ++edit) {
        switch (random() % 5) {
        case 0: // flip a byte
            if (!input.empty())
                input[pick(input.size())] ^= std::uint8_t(1u << (random() % 8));
            break;
        case 1: { // insert an interesting byte
            static const std::uint8_t interesting[] = {'\r', '\n', ':', ' ', '0', '9', 'f', ';', '\0', 0xff};
            input.insert(input.begin() + std::ptrdiff_t(pick(input.size() + 1)),
                         interesting[random() % sizeof interesting]);
            break;
        }
        case 2: { // delete a run
            const std::size_t from = pick(input.size());
            const std::size_t length = std::min(input.size() - from, pick(16) + 1);
            input.erase(input.begin() + std::ptrdiff_t(from), input.begin() + std::ptrdiff_t(from + length));
            break;
        }
        case 3: { // duplicate a run
            const std::size_t from = pick(input.size());
            const std::size_t length = std::min(input.size() - from, pick(64) + 1);
            const Bytes run(input.begin() + std::ptrdiff_t(from), input.begin() + std::ptrdiff_t(from + length));
            input.insert(input.begin() + std::ptrdiff_t(from), run.begin(), run.end());
            break;
        }
        default: // truncate
            input.resize(pick(input.size() + 1));
            break;
        }
    }
    return input;
}

} // namespace

int main(int argc, char **argv)
{
    int mutants = 2000;
    std::vector<std::filesystem::path> seeds;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--mutants") == 0 && i + 1 < argc) {
            mutants = std::atoi(argv[++i]);
            continue;
        }
        for (const auto &entry : std::filesystem::directory_iterator(argv[i]))
            if (entry.is_regular_file())
                seeds.push_back(entry.path());
    }
    std::sort(seeds.begin(), seeds.end());
    if (seeds.empty()) {
        std::fprintf(stderr, "usage: fuzz_replay [--mutants N] FOLDER...  (no seed files found)\n");
        return 2;
    }
    std::mt19937_64 random(20261122);
    std::size_t runs = 0;
    for (const std::filesystem::path &path : seeds) {
        std::ifstream file(path, std::ios::binary);
        const Bytes seed((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        run(seed);
        ++runs;
        for (int i = 0; i < mutants; ++i, ++runs)
            run(mutate(seed, random));
    }
    std::printf("fuzz_replay: %zu seeds, %zu inputs, no violation\n", seeds.size(), runs);
    return 0;
}
