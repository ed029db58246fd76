# SPDX-License-Identifier: MIT
# Read by cpack for each package it makes (CPACK_PROJECT_CONFIG_FILE in
# installer/package.cmake). The source package (`package_source`, a .tar.gz)
# keeps the checkout's own layout; only the .deb installs under the prefix.
if(CPACK_GENERATOR STREQUAL "TGZ")
  set(CPACK_PACKAGING_INSTALL_PREFIX "")
endif()
