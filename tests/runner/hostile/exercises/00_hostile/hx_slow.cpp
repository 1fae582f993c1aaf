/// @file
/// @brief Hostile fixture (learner side): right, but takes three seconds, so that other commands
/// can run during its check.
#include <unistd.h>

int hx_slow() {
    sleep(3);
    return 7;
}
