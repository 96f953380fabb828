# Precompiled headers (docs/testing.md#build-time): the heavy third-party headers (nlohmann/json,
# Eigen, {fmt}, GoogleTest, CLI11, Google Benchmark) and the common standard ones are parsed once
# per target, or once for all tests and once for all benches, instead of once per file. Same
# flags, same bits: a PCH is only the parsed headers.
# Off by default: measured, it saves 3% of a clean build's CPU time (most of it is -O3 code
# generation, not parsing) and costs two GCC warnings (below). Never with a compiler launcher
# (ccache does not cache PCH compiles without its pch sloppiness) nor in the sanitizer and fuzzer
# builds. The header-check TUs never use one: each public header must compile on its own.
option(PLAB_PCH "Precompile the heavy third-party headers (3% of a clean build's CPU time)" OFF)
if(CMAKE_CXX_COMPILER_LAUNCHER OR PLAB_SANITIZE OR PLAB_FUZZ)
  set(PLAB_PCH OFF)
endif()
# Code of libstdc++ inlined from a GCC precompiled header loses its system-header mark, so GCC
# 12's false -Warray-bounds and -Wstringop-overflow positives inside std::string (GCC bug 105651's
# family), silent without a PCH, are reported: off in every target of a PCH build with GCC (the
# ccache and sanitizer builds keep them).
if(PLAB_PCH AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  add_compile_options(-Wno-array-bounds -Wno-stringop-overflow)
endif()
set(PLAB_PCH_HEADERS <algorithm> <cmath> <cstdint> <functional> <map> <memory> <sstream> <string> <vector>
    <nlohmann/json.hpp> <fmt/format.h> <Eigen/Dense>)

# plab_pch(target group [extra headers...]): the first target of a group precompiles the headers,
# the others (same flags and definitions) reuse its PCH.
function(plab_pch target group)
  if(NOT PLAB_PCH)
    return()
  endif()
  get_property(host GLOBAL PROPERTY PLAB_PCH_HOST_${group})
  if(host)
    target_precompile_headers(${target} REUSE_FROM ${host})
  else()
    target_precompile_headers(${target} PRIVATE ${PLAB_PCH_HEADERS} ${ARGN})
    set_property(GLOBAL PROPERTY PLAB_PCH_HOST_${group} ${target})
  endif()
endfunction()
