/// @file lesson_test.cpp
/// @brief Tests of torchlings/lesson.h: the shared command line and exit codes of lesson demos.
#include <torchlings/lesson.h>

#include <tl_test/tensors.h>

#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

/// Captures std::cout and std::cerr for the lifetime of the object.
class CaptureStreams {
  public:
    CaptureStreams()
        : old_out_(std::cout.rdbuf(out_.rdbuf())), old_err_(std::cerr.rdbuf(err_.rdbuf())) {}
    ~CaptureStreams() {
        std::cout.rdbuf(old_out_);
        std::cerr.rdbuf(old_err_);
    }
    CaptureStreams(const CaptureStreams&) = delete;
    CaptureStreams& operator=(const CaptureStreams&) = delete;
    std::string out() const { return out_.str(); }
    std::string err() const { return err_.str(); }

  private:
    std::ostringstream out_;
    std::ostringstream err_;
    std::streambuf* old_out_;
    std::streambuf* old_err_;
};

int run(std::vector<std::string> args,
        const std::function<void(const torchlings::LessonContext&)>& body) {
    args.insert(args.begin(), "lesson_test");
    std::vector<char*> argv;
    for (auto& a : args) {
        argv.push_back(a.data());
    }
    return torchlings::run_lesson(static_cast<int>(argv.size()), argv.data(), "test lesson", body);
}

}  // namespace

TEST_CASE("a lesson runs its body on the requested device", "[lesson]") {
    CaptureStreams capture;
    std::string seen;
    const int rc = run({"--device", "cpu"}, [&](const torchlings::LessonContext& c) {
        seen = c.requested + " -> " + c.device.str();
    });
    CHECK(rc == 0);
    CHECK(seen == "cpu -> cpu");
    CHECK(capture.out().find("test lesson (device cpu)") != std::string::npos);
}

TEST_CASE("the default device is auto", "[lesson]") {
    CaptureStreams capture;
    std::string requested;
    CHECK(run({}, [&](const torchlings::LessonContext& c) { requested = c.requested; }) == 0);
    CHECK(requested == "auto");
}

TEST_CASE("a malformed or absent device exits 2 with the reason on stderr", "[lesson]") {
    CaptureStreams capture;
    bool ran = false;
    CHECK(run({"--device", "gpu"}, [&](const torchlings::LessonContext&) { ran = true; }) == 2);
    CHECK_FALSE(ran);
    CHECK(capture.err().find("Invalid device 'gpu'") != std::string::npos);
    const std::string absent =
        "cuda:" + std::to_string(static_cast<int>(torch::cuda::device_count()));
    CHECK(run({"--device", absent}, [&](const torchlings::LessonContext&) { ran = true; }) == 2);
    CHECK_FALSE(ran);
    CHECK(capture.err().find("is not available") != std::string::npos);
}

TEST_CASE("an unknown option exits 2 and --help exits 0", "[lesson]") {
    CaptureStreams capture;
    CHECK(run({"--frobnicate"}, [](const torchlings::LessonContext&) {}) == 2);
    CHECK(run({"--help"}, [](const torchlings::LessonContext&) {}) == 0);
}

TEST_CASE("an exception from the body exits 1 with its message", "[lesson]") {
    CaptureStreams capture;
    CHECK(run({"--device", "cpu"},
              [](const torchlings::LessonContext&) { throw std::runtime_error("boom"); }) == 1);
    CHECK(capture.err().find("error: boom") != std::string::npos);
    CHECK(run({"--device", "cpu"}, [](const torchlings::LessonContext&) {
              (void)torch::ones({2}).matmul(torch::ones({3}));  // a LibTorch shape error
          }) == 1);
    CHECK(capture.err().find("error from LibTorch:") != std::string::npos);
}

TEST_CASE("fields and sections print in the shape lessons share", "[lesson]") {
    CaptureStreams capture;
    torchlings::print_section("Title");
    torchlings::print_field("Key", "value");
    CHECK(capture.out() == "== Title ==\nKey:                        value\n");
}

TEST_CASE("a lesson's own options are parsed with --device", "[lesson]") {
    CaptureStreams capture;
    std::string json = "unchanged";
    std::vector<std::string> args{"lesson_test", "--json", "out.json", "--device", "cpu"};
    std::vector<char*> argv;
    for (auto& a : args) {
        argv.push_back(a.data());
    }
    std::string device;
    const int rc = torchlings::run_lesson(
        static_cast<int>(argv.size()), argv.data(), "test lesson",
        {{"--json", "write JSON here", &json}},
        [&](const torchlings::LessonContext& c) { device = c.device.str(); });
    CHECK(rc == 0);
    CHECK(json == "out.json");
    CHECK(device == "cpu");

    std::string untouched = "default";
    argv.resize(1);
    CHECK(torchlings::run_lesson(1, argv.data(), "test lesson", {{"--json", "", &untouched}},
                                 [](const torchlings::LessonContext&) {}) == 0);
    CHECK(untouched == "default");
    CHECK(run({"--json", "x.json"}, [](const torchlings::LessonContext&) {}) == 2);
}
