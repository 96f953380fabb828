# Writes the git revision of the source tree into OUT, only when it changed (so a rebuild after a
# commit re-stamps every summary and cell key, and nothing else recompiles).
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE rev OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT rev)
  set(rev unknown)
endif()
# results/ and README.md are what `make reproduce` writes, not inputs of the binary.
execute_process(COMMAND git status --porcelain --untracked-files=no -- . ":(exclude)results" ":(exclude)README.md"
                WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(dirty)
  set(rev "${rev}-dirty")
endif()
set(content "#pragma once\n#define PLAB_GIT_REVISION \"${rev}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${content}")
  file(WRITE ${OUT} "${content}")
endif()
