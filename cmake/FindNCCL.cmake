# Finds nccl.h for the distributed family. Headers only: libnccl is dlopened at
# run time (harness/src/nccl.cpp), so the binaries start where NCCL is absent.
# Looks in NCCL_ROOT (variable or environment), the wheel tools/setup.sh puts in
# build-tools/nccl, then the system. Sets NCCL_FOUND, NCCL_INCLUDE_DIR,
# NCCL_VERSION, NCCL_LIBRARY_DIR (where libnccl.so.2 is, when next to the headers)
# and the target NCCL::headers (include dir and SORTBENCH_HAVE_NCCL).
find_path(NCCL_INCLUDE_DIR nccl.h
  HINTS ${NCCL_ROOT} $ENV{NCCL_ROOT} ${CMAKE_SOURCE_DIR}/build-tools/nccl/nvidia/nccl
  PATH_SUFFIXES include)

if(NCCL_INCLUDE_DIR AND EXISTS ${NCCL_INCLUDE_DIR}/nccl.h)
  file(STRINGS ${NCCL_INCLUDE_DIR}/nccl.h _nccl_version_lines REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) +[0-9]+")
  foreach(_part MAJOR MINOR PATCH)
    string(REGEX MATCH "NCCL_${_part} +([0-9]+)" _ "${_nccl_version_lines}")
    set(_nccl_${_part} ${CMAKE_MATCH_1})
  endforeach()
  set(NCCL_VERSION ${_nccl_MAJOR}.${_nccl_MINOR}.${_nccl_PATCH})
  # The library the headers came with (the wheel's lib/, a system's lib64/): the loader's last resort.
  get_filename_component(_nccl_prefix ${NCCL_INCLUDE_DIR} DIRECTORY)
  find_path(NCCL_LIBRARY_DIR libnccl.so.2 HINTS ${_nccl_prefix} PATH_SUFFIXES lib lib64 NO_DEFAULT_PATH)
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NCCL REQUIRED_VARS NCCL_INCLUDE_DIR VERSION_VAR NCCL_VERSION)
mark_as_advanced(NCCL_INCLUDE_DIR NCCL_LIBRARY_DIR)

if(NCCL_FOUND AND NOT TARGET NCCL::headers)
  add_library(NCCL::headers INTERFACE IMPORTED)
  # Not SYSTEM: -I comes before every -isystem and nvcc's own -I, where CUDA's
  # include dir may hold another NCCL's nccl.h (CUDA 13.0 here has 2.28.9).
  set_target_properties(NCCL::headers PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES ${NCCL_INCLUDE_DIR}
    INTERFACE_COMPILE_DEFINITIONS SORTBENCH_HAVE_NCCL
    SYSTEM OFF)
endif()
