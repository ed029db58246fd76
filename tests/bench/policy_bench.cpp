// SPDX-License-Identifier: MIT
// Benchmark (not a test): how long `policy explain` takes for the largest
// presets and custom policies. Prints the median of many runs.
//   build/dev/tests/bench/policy_bench [runs]
#include "policy/policy_presets.h"
#include "policy/policy_report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

using namespace relaydesk;

namespace {

double medianMicroseconds(int runs, const std::function<size_t()> &work)
{
    std::vector<double> samples;
    size_t sink = 0;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        sink += work();
        const auto end = std::chrono::steady_clock::now();
        samples.push_back(std::chrono::duration<double, std::micro>(end - start).count());
    }
    std::sort(samples.begin(), samples.end());
    if (sink == 0)
        std::puts("(no output)");
    return samples[samples.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    const int runs = argc > 1 ? std::atoi(argv[1]) : 2000;
    const DeliveryPolicy managed = findPolicyPreset("sns-aws-managed")->policy;
    const nlohmann::json custom = nlohmann::json::parse(R"({"healthyRetryPolicy": {
        "numRetries": 100, "numNoDelayRetries": 5, "numMinDelayRetries": 5, "numMaxDelayRetries": 10,
        "minDelayTarget": 1, "maxDelayTarget": 30, "backoffFunction": "exponential"}})");
    const PolicyCheckContext http;

    const double managedUs = medianMicroseconds(runs, [&] {
        return explanationJson(explainPolicy(managed, "preset sns-aws-managed", http)).dump().size();
    });
    const double customUs = medianMicroseconds(runs, [&] {
        return explanationJson(explainPolicy(custom, "custom.json", http)).dump().size();
    });
    const double scheduleUs = medianMicroseconds(runs, [&] {
        return size_t(planSchedule(*managed.retry, Dialect::Sns).totalDelaySeconds());
    });
    std::printf("explain sns-aws-managed (100 015 retries, to JSON): median %.1f us over %d runs\n", managedUs, runs);
    std::printf("explain custom 100-retry policy (parse+validate+plan+JSON): median %.1f us over %d runs\n", customUs, runs);
    std::printf("planSchedule sns-aws-managed alone: median %.1f us over %d runs\n", scheduleUs, runs);
    return 0;
}
