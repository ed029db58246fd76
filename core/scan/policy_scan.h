// SPDX-License-Identifier: MIT
#pragma once

#include "found_policy.h"
#include "policy_checks.h"

#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

// A file the scan recognised, and in which format.
struct ScannedFile {
    std::string file;
    std::string format;
    std::size_t policies = 0;
};

// `relaydesk policy scan`'s result: every policy found, checked.
struct ScanResult {
    std::vector<FoundPolicy> policies;
    std::vector<ScannedFile> files;     // the files that held a template or policy
    std::size_t filesRead = 0;          // every file looked at
    std::vector<std::string> problems;  // "PATH: cannot be read": paths that could not be scanned

    std::size_t findingsAtOrAbove(FindingLevel level) const;
};

// Scans files and folders (recursively; hidden folders are skipped). A file
// is recognised by its content, not its name: JSON or YAML holding a
// CloudFormation/SAM template, a Terraform plan, an ARM template, a Heat
// template, a Service Bus Config.json, Zaqar queue metadata or a policy.
// Blocking file I/O; any thread.
ScanResult scanPaths(const std::vector<std::string> &paths, const ScanOptions &options);

// One file's text (what scanPaths does for each file). Pure.
void scanText(std::string_view text, const std::string &file, const std::string &relativeFile,
              const ScanOptions &options, ScanResult &into);

} // namespace relaydesk
