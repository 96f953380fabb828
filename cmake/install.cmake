# Install rules of the core library (docs/architecture.md#use-it-from-c): the archive, its public
# headers under include/perceptron_lab/<folder>/, a CMake package (perceptron_lab::perceptron_lab)
# and a pkg-config file. The build's CMAKE_CXX_FLAGS_RELEASE (-march) is not part of the interface.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(PLAB_PUBLIC_HEADER_DIRS core datasets numerics algorithms bounds models config)
foreach(dir ${PLAB_PUBLIC_HEADER_DIRS})
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/perceptron_lab/${dir}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(TARGETS plab_core EXPORT perceptron_labTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
set(PLAB_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/perceptron_lab)
install(EXPORT perceptron_labTargets NAMESPACE perceptron_lab:: DESTINATION ${PLAB_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/perceptron_labConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/perceptron_labConfig.cmake INSTALL_DESTINATION ${PLAB_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/perceptron_labConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
# Prefix relative to the .pc file: `cmake --install --prefix P` chooses it after configuring.
file(RELATIVE_PATH PLAB_PC_UP /x/${CMAKE_INSTALL_LIBDIR}/pkgconfig /x)
string(REGEX REPLACE "/$" "" PLAB_PC_UP "${PLAB_PC_UP}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/perceptron_lab.pc.in ${CMAKE_BINARY_DIR}/perceptron_lab.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/perceptron_labConfig.cmake ${CMAKE_BINARY_DIR}/perceptron_labConfigVersion.cmake
        DESTINATION ${PLAB_CMAKE_DIR})
install(FILES ${CMAKE_BINARY_DIR}/perceptron_lab.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# Each public header compiles on its own, included as a consumer includes it
# (<perceptron_lab/folder/x.hpp>, here through a link to the source tree): one generated TU each.
set(PLAB_HEADER_CHECK_DIR ${CMAKE_BINARY_DIR}/header-check)
file(MAKE_DIRECTORY ${PLAB_HEADER_CHECK_DIR}/include)
file(CREATE_LINK ${CMAKE_SOURCE_DIR} ${PLAB_HEADER_CHECK_DIR}/include/perceptron_lab SYMBOLIC)
set(PLAB_HEADER_CHECK_SOURCES "")
foreach(dir ${PLAB_PUBLIC_HEADER_DIRS})
  file(GLOB headers CONFIGURE_DEPENDS RELATIVE ${CMAKE_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/${dir}/*.hpp)
  foreach(h ${headers})
    string(REPLACE "/" "__" tu ${h})
    set(tu ${PLAB_HEADER_CHECK_DIR}/${tu}.cpp)
    file(CONFIGURE OUTPUT ${tu} CONTENT "#include <perceptron_lab/${h}>\n")
    list(APPEND PLAB_HEADER_CHECK_SOURCES ${tu})
  endforeach()
endforeach()
add_library(plab_header_check OBJECT ${PLAB_HEADER_CHECK_SOURCES})
target_include_directories(plab_header_check PRIVATE ${PLAB_HEADER_CHECK_DIR}/include)
target_link_libraries(plab_header_check PRIVATE plab_core)
