/// @file
/// @brief Hostile fixture (learner side): stops its parent process (SIGSTOP), which is the runner
/// when nothing stands between them, then gives the right answer.
#include <signal.h>
#include <unistd.h>

int hx_stop_parent() {
    kill(getppid(), SIGSTOP);
    return 5;
}
