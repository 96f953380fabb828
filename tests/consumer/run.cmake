# ctest install_consumer: installs the build BUILD into a fresh prefix, then configures, builds
# and runs the consumer project SRC/tests/consumer against it with find_package, with the build's
# compiler, build type and (sanitized builds) sanitizer flags.
set(work ${BUILD}/consumer-test)
file(REMOVE_RECURSE ${work})
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install_consumer: '${ARGN}' failed (${rc})")
  endif()
endfunction()
step(${CMAKE_COMMAND} --install ${BUILD} --prefix ${work}/prefix)
step(${CMAKE_COMMAND} -S ${SRC}/tests/consumer -B ${work}/build -DCMAKE_PREFIX_PATH=${work}/prefix
     -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}
     "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}")
step(${CMAKE_COMMAND} --build ${work}/build)
step(${work}/build/consumer)
