/// @file
/// @brief Hostile fixture (learner side): a right answer that leaves a process behind, in a
/// session of its own (out of the test's process group), holding the output pipe open for ten
/// minutes. Its pid goes to $HX_PID_FILE when set.
#include <unistd.h>

#include <cstdlib>
#include <fstream>

int hx_answer() {
    if (fork() == 0) {
        setsid();
        if (const char* file = std::getenv("HX_PID_FILE")) {
            std::ofstream(file) << getpid() << "\n";
        }
        sleep(600);
        _exit(0);
    }
    return 42;
}
