# Link options that every program linking LibTorch needs, applied to every target the course
# builds (lessons, exercises, tests, benchmarks): a learner's own CMake project needs the same two
# lines, which docs/build_and_link.md shows.

# 1. The C++ standard library before LibTorch. torch wheels since 2.5 export libstdc++ symbols
#    that they link statically (PyTorch issue 133437): std::filesystem's among them, 101 in
#    libtorch_cpu.so of 2.9, 2.11 and 2.15, and 64 more in libtorch.so of 2.9 and 2.11 (none in
#    2.15's). The dynamic loader
#    binds a program's calls to the first library in its list of needed libraries that defines a
#    symbol, and the linker lists them in command-line order: LibTorch first. With 2.11, lesson
#    06's std::filesystem::remove_all() ran libtorch.so's private copy and crashed. Naming the
#    shared library by its file name (-l:libstdc++.so.6) at the front of every link line puts it
#    first in that list. A plain -lstdc++ is not enough: a GCC installed elsewhere (seen under
#    /opt/gcc on a GPU server) resolves it to a copy that adds nothing to the list there.
#    macOS links libc++ (no libstdc++ there) with Apple's linker, which has none of these options.
if(NOT APPLE)
  add_link_options("$<$<LINK_LANGUAGE:CXX>:LINKER:--push-state,--no-as-needed,-l:libstdc++.so.6,--pop-state>")
endif()

# 2. The wheel's own CUDA libraries for the linker's dependency check. ld.bfd (the default linker;
#    the course uses mold only with GCC 12.1 or newer) checks that the libraries a program links
#    find their own dependencies. libtorch_cuda.so needs the NCCL, cuDNN, cuBLAS... of the wheel
#    (site-packages/nvidia/*/lib), which its run path names relative to itself; ld.bfd does not
#    follow that, finds the CUDA toolkit's older NCCL through Torch's rpath instead, and stops on
#    "undefined reference to ncclCommGrow". -rpath-link tells it where to look first. It changes
#    nothing in the program: at run time libtorch_cuda.so finds them through its own run path.
get_filename_component(_tl_site_packages "${_torch_root}/.." ABSOLUTE)
file(GLOB _tl_wheel_lib_dirs LIST_DIRECTORIES true "${_tl_site_packages}/nvidia/*/lib")
if(_tl_wheel_lib_dirs)
  list(JOIN _tl_wheel_lib_dirs ":" _tl_rpath_link)
  add_link_options("$<$<LINK_LANGUAGE:CXX>:LINKER:-rpath-link,${_tl_rpath_link}>")
endif()

# 3. The wheel's NCCL headers before the toolkit's. ProcessGroupNCCL.hpp includes <nccl.h>; the
#    toolkit's include folder (which Torch's targets add) may hold an older NCCL than the one the
#    wheel links. common/src/distributed_nccl.cpp takes this folder with a plain -I, which the
#    compiler searches before every -isystem folder, the toolkit's included.
set(TORCHLINGS_WHEEL_NCCL_INCLUDE "")
if(EXISTS "${_tl_site_packages}/nvidia/nccl/include/nccl.h")
  set(TORCHLINGS_WHEEL_NCCL_INCLUDE "${_tl_site_packages}/nvidia/nccl/include")
endif()
