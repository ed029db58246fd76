// SPDX-License-Identifier: MIT
#include "policy_scan.h"

#include "template_readers.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace relaydesk {

namespace {

// A file larger than this is no template (a Terraform plan of a big estate is a few MiB).
constexpr std::uintmax_t kMaxFileBytes = 16u << 20;

using Reader = std::optional<TemplateScan> (*)(const ScanDocument &, const std::string &);
// The most specific first: a plan or an ARM template is never taken for a policy.
constexpr Reader kReaders[] = {readTerraformPlan, readCloudFormation, readArmTemplate, readHeatTemplate,
                               readServiceBusConfigJson, readPolicyFile};

std::optional<ScanDocument> readDocument(std::string_view text)
{
    const std::size_t first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    if (first == std::string_view::npos || text.find('\0') != std::string_view::npos)
        return std::nullopt;
    if (text[first] == '{')
        return readJsonScanDocument(text);
    return readYamlScanDocument(text);
}

void scanFile(const std::filesystem::path &path, const std::string &relative, const ScanOptions &options,
              ScanResult &into)
{
    ++into.filesRead;
    std::error_code error;
    if (std::filesystem::file_size(path, error) > kMaxFileBytes || error)
        return;
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        into.problems.push_back(path.string() + ": cannot be read");
        return;
    }
    std::ostringstream text;
    text << file.rdbuf();
    scanText(text.str(), path.string(), relative, options, into);
}

} // namespace

std::size_t ScanResult::findingsAtOrAbove(FindingLevel level) const
{
    std::size_t count = 0;
    for (const FoundPolicy &policy : policies) {
        count += std::size_t(std::count_if(policy.findings.begin(), policy.findings.end(),
                                           [level](const ScanFinding &f) { return f.level >= level; }));
    }
    return count;
}

void scanText(std::string_view text, const std::string &file, const std::string &relativeFile,
              const ScanOptions &options, ScanResult &into)
{
    const std::optional<ScanDocument> document = readDocument(text);
    if (!document)
        return;
    try {
        for (Reader reader : kReaders) {
            std::optional<TemplateScan> scan = reader(*document, file);
            if (!scan)
                continue;
            into.files.push_back({file, scan->format, scan->policies.size()});
            // In the order of the file (a JSON object's members come sorted by key).
            std::stable_sort(scan->policies.begin(), scan->policies.end(), [](const FoundPolicy &a, const FoundPolicy &b) {
                return std::pair(a.place.line, a.place.column) < std::pair(b.place.line, b.place.column);
            });
            for (FoundPolicy &policy : scan->policies) {
                policy.relativeFile = relativeFile;
                checkFoundPolicy(policy, *document, options);
                into.policies.push_back(std::move(policy));
            }
            return;
        }
    } catch (const nlohmann::json::exception &error) {
        // A template whose shape a reader did not expect (a list where a map belongs).
        into.problems.push_back(file + ": not a template this scan can read (" + error.what() + ")");
    }
}

ScanResult scanPaths(const std::vector<std::string> &paths, const ScanOptions &options)
{
    namespace fs = std::filesystem;
    ScanResult result;
    for (const std::string &given : paths) {
        std::error_code error;
        const fs::path root(given);
        if (fs::is_regular_file(root, error)) {
            scanFile(root, root.filename().string(), options, result);
            continue;
        }
        if (!fs::is_directory(root, error)) {
            result.problems.push_back(given + ": no such file or folder");
            continue;
        }
        std::vector<fs::path> files;
        fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, error), end;
        for (; it != end; it.increment(error)) {
            if (error)
                break;
            const std::string name = it->path().filename().string();
            if (it->is_directory() && !name.empty() && name[0] == '.')
                it.disable_recursion_pending();
            else if (it->is_regular_file())
                files.push_back(it->path());
        }
        std::sort(files.begin(), files.end());   // a stable report, whatever the directory order
        for (const fs::path &path : files)
            scanFile(path, path.lexically_relative(root).generic_string(), options, result);
    }
    return result;
}

} // namespace relaydesk
