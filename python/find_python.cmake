# Sets PLAB_PYTHON_FOUND: pybind11 (CMake config), Debian's /usr/bin/python3 with its headers and
# numpy, outside sanitized and fuzzing builds. The interpreter is pinned: a pyenv python3 may come
# first on PATH and would build a module Debian's python cannot import.
set(PLAB_PYTHON_FOUND OFF)
if(NOT PLAB_SANITIZE AND NOT PLAB_FUZZ AND EXISTS /usr/bin/python3)
  set(Python_EXECUTABLE /usr/bin/python3)
  find_package(Python COMPONENTS Interpreter Development.Module QUIET)
  find_package(pybind11 CONFIG QUIET)
  if(Python_FOUND AND pybind11_FOUND)
    execute_process(COMMAND /usr/bin/python3 -c "import numpy" RESULT_VARIABLE plab_numpy_rc
                    OUTPUT_QUIET ERROR_QUIET)
    if(plab_numpy_rc EQUAL 0)
      set(PLAB_PYTHON_FOUND ON)
    endif()
  endif()
endif()
