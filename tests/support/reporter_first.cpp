/// @file
/// @brief The head of every exercise test program's .preinit_array: linked before the learner's
/// file (CMake puts an executable's object sources first), so that the reporter takes the run's
/// key (run_key.h, in catch_main.cpp) before any function of the learner's file can run, even one
/// that file puts in .preinit_array itself.

extern "C" void tl_reporter_preinit(int argc, char** argv, char** envp);

#ifdef __ELF__
namespace {
[[maybe_unused]] __attribute__((section(".preinit_array"),
                                used)) void (*const kFirst)(int, char**,
                                                            char**) = tl_reporter_preinit;
}  // namespace
#endif
