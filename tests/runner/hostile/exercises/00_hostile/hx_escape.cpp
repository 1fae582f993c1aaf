/// @file
/// @brief Hostile fixture (learner side): a right answer that leaves a process behind, in a
/// session of its own (out of the test's process group), holding the output pipe open for ten
/// minutes. Its pid goes to $HX_PID_FILE when set; the answer comes once it has escaped.
#include <unistd.h>

#include <cstdlib>
#include <fstream>

int hx_answer() {
    int ready[2] = {-1, -1};
    if (pipe(ready) != 0) {
        return -1;
    }
    if (fork() == 0) {
        setsid();
        if (const char* file = std::getenv("HX_PID_FILE")) {
            std::ofstream(file) << getpid() << "\n";
        }
        const char byte = 1;
        [[maybe_unused]] const ssize_t written = write(ready[1], &byte, 1);
        close(ready[1]);
        sleep(600);
        _exit(0);
    }
    close(ready[1]);
    char byte = 0;
    [[maybe_unused]] const ssize_t got = read(ready[0], &byte, 1);
    close(ready[0]);
    return 42;
}
