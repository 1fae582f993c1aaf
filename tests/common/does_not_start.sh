#!/bin/sh
# Stands in for a test program the dynamic loader refuses (see tests/common/CMakeLists.txt).
echo "does_not_start: error while loading shared libraries: libmissing.so: cannot open shared object file" >&2
exit 127
