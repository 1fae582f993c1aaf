// cheatsheet_gen: turns the C++ column of docs/cheatsheet.md into translation units, so that the
// build compiles every LibTorch call the cheat sheet names.
//
//   cheatsheet_gen <cheatsheet.md> <everywhere.cpp> <cuda.cpp>
//
// A table preceded by `<!-- cheatsheet-check: everywhere -->` (or `cuda`) is checked; its rows are
// `| Python | LibTorch (C++) | Note | Lesson |`. Every code span of the C++ cell becomes the body
// of one function: a span ending in `;` or `}` is taken as statements, any other as an expression.
// The lesson cell must link to a lesson README that exists. Anything else is an error that names
// the line, so a malformed row fails the build instead of going unchecked.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
    std::cerr << where << ": error: " << what << '\n';
    std::exit(1);
}

std::vector<std::string> split_cells(const std::string& row) {
    // "| a | b |" -> {"a", "b"}; code spans never contain '|' in this file.
    std::vector<std::string> cells;
    std::string cell;
    for (std::size_t i = 1; i < row.size(); ++i) {
        if (row[i] == '|') {
            const auto first = cell.find_first_not_of(' ');
            const auto last = cell.find_last_not_of(' ');
            cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
            cell.clear();
        } else {
            cell += row[i];
        }
    }
    return cells;
}

std::vector<std::string> code_spans(const std::string& cell) {
    std::vector<std::string> spans;
    std::size_t pos = 0;
    while ((pos = cell.find('`', pos)) != std::string::npos) {
        const auto end = cell.find('`', pos + 1);
        if (end == std::string::npos) {
            break;
        }
        spans.push_back(cell.substr(pos + 1, end - pos - 1));
        pos = end + 1;
    }
    return spans;
}

constexpr const char* kParameters =
    "[[maybe_unused]] torch::Tensor x, [[maybe_unused]] torch::Tensor loss,\n"
    "    [[maybe_unused]] torch::Device device, [[maybe_unused]] std::vector<torch::Device> "
    "devices,\n"
    "    [[maybe_unused]] torch::nn::Linear model, [[maybe_unused]] std::vector<float> buffer,\n"
    "    [[maybe_unused]] double total";

std::string header(const std::string& source, bool cuda) {
    std::string text = "// Generated from " + source +
                       " by cheatsheet_gen; do not edit. Each function holds one code span of the\n"
                       "// cheat sheet's C++ column; none is ever called: compiling is the check.\n"
                       "#include <torch/torch.h>\n#include <torch/version.h>\n";
    if (cuda) {
        text +=
            "#include <ATen/cuda/CUDAContext.h>\n#include <c10/cuda/CUDACachingAllocator.h>\n"
            "#include <c10/cuda/CUDAException.h>\n#include <c10/cuda/CUDAFunctions.h>\n"
            "#include <c10/cuda/CUDAGuard.h>\n#include <torch/nn/parallel/data_parallel.h>\n";
    }
    return text + "\n#include <string>\n#include <vector>\n\nnamespace {\n";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: cheatsheet_gen <cheatsheet.md> <everywhere.cpp> <cuda.cpp>\n";
        return 64;
    }
    const fs::path markdown = argv[1];
    std::ifstream in(markdown);
    if (!in) {
        fail(markdown.string(), "cannot read the file");
    }
    std::string out[2] = {header(markdown.filename().string(), false),
                          header(markdown.filename().string(), true)};
    int counts[2] = {0, 0};
    int mode = -1;  // -1: not in a checked table; 0: everywhere; 1: cuda
    const std::regex marker(R"(<!-- cheatsheet-check: (everywhere|cuda) -->)");
    const std::regex lesson_link(R"(^\[(\d\d)\]\(\.\./(lessons/\d\d_[a-z0-9_]+/README\.md)\)$)");
    std::string line;
    int number = 0;
    int rows_in_table = 0;
    while (std::getline(in, line)) {
        ++number;
        const std::string where = markdown.string() + ":" + std::to_string(number);
        std::smatch m;
        if (std::regex_search(line, m, marker)) {
            mode = m[1] == "cuda" ? 1 : 0;
            rows_in_table = 0;
            continue;
        }
        if (mode < 0) {
            continue;
        }
        if (line.rfind('|', 0) != 0) {
            if (rows_in_table > 0) {
                mode = -1;  // the table ended
            }
            continue;
        }
        ++rows_in_table;
        const auto cells = split_cells(line);
        if (cells.size() != 4) {
            fail(where,
                 "a checked row has 4 cells (Python | LibTorch (C++) | Note | Lesson), this one " +
                     std::to_string(cells.size()));
        }
        if (rows_in_table <= 2) {
            continue;  // the header row and the separator
        }
        const auto spans = code_spans(cells[1]);
        if (spans.empty()) {
            fail(where, "the C++ cell has no `code`; every row must name the LibTorch call");
        }
        if (!std::regex_match(cells[3], m, lesson_link)) {
            fail(where,
                 "the lesson cell must be a link like [03](../lessons/03_topic/README.md), not '" +
                     cells[3] + "'");
        }
        if (!fs::exists(markdown.parent_path() / ".." / m[2].str())) {
            fail(where, "the linked lesson " + m[2].str() + " does not exist");
        }
        for (const auto& span : spans) {
            const bool statements = span.back() == ';' || span.back() == '}';
            std::ostringstream fn;
            fn << "// " << markdown.filename().string() << ":" << number << "\n"
               << "[[maybe_unused]] void line_" << number << "_" << counts[mode] << "("
               << kParameters << ") {\n#line " << number << " \"" << fs::absolute(markdown).string()
               << "\"\n  " << (statements ? span : "static_cast<void>(" + span + ");") << "\n}\n\n";
            out[mode] += fn.str();
            ++counts[mode];
        }
    }
    if (counts[0] == 0 || counts[1] == 0) {
        fail(markdown.string(), "expected a checked table of each kind (everywhere, cuda)");
    }
    for (int i = 0; i < 2; ++i) {
        const fs::path target = argv[2 + i];
        const std::string text = out[i] + "}  // namespace\n";
        std::ifstream old(target);
        std::stringstream before;
        before << old.rdbuf();
        if (before.str() != text) {  // unchanged output keeps its timestamp: no needless rebuild
            std::ofstream(target) << text;
        }
    }
    std::cout << "cheatsheet: " << counts[0] << " calls for every build, " << counts[1]
              << " for CUDA builds\n";
    return 0;
}
