#!/usr/bin/env bash
# Builds the Debian package mprisd_VERSION_ARCH.deb from this checkout (a fresh clone will do).
#
#   scripts/package.sh                 build into the repository's top folder
#   scripts/package.sh --output DIR    build into DIR
#   scripts/package.sh --suite trixie  the package for Debian 13 (default: bookworm, Debian 12)
#
# Prints the path of the package as its last line (build logs go to stderr). What it holds:
#   /usr/bin/mprisd, /usr/bin/mprisd-control   release builds with the Swift standard library and
#       Foundation linked in (--static-swift-stdlib): nothing under the toolchain is needed;
#       stripped as dh_strip does; no RPATH (--disable-local-rpath)
#   /usr/lib/systemd/user/mprisd.service, /usr/share/dbus-1/services/org.mprisd.AudioPolicy.service
#       from dist/, with /usr/bin as the binaries' folder
#   /usr/share/man/man1/mprisd.1.gz (mprisd-control.1.gz links to it: the page covers both)
#   /usr/share/bash-completion/completions/mprisd, /usr/share/zsh/vendor-completions/_mprisd
#   /usr/share/doc/mprisd: README.md.gz, every docs/*.md page as NAME.md.gz (architecture,
#       audio-policy-api, benchmarks-history, calls-and-prompts, configuration, daemon, guidelines, install,
#       keys-and-headset, library-api, player, routes, testing), changelog.Debian.gz, copyright
#   /usr/share/lintian/overrides/mprisd: the one lintian warning that stays, and why
#
# The version is the one in Sources/mprisd/CLI/Version.swift (what `mprisd --version` prints), with
# the Debian revision below; Depends is what dpkg-shlibdeps finds the binaries link, plus libpulse0
# and libsndfile1, which `mprisd` loads on first use (dlopen: dpkg-shlibdeps cannot see them), named
# in dist/debian/control with the minimum versions dpkg-shlibdeps gave while they were linked;
# libpipewire-0.3-0 (loaded only where the server is PipeWire, to read WirePlumber's settings; every
# PipeWire system has it) is recommended there. init-system-helpers (>= 1.58: deb-systemd-helper --user)
# is a dependency too,
# for the maintainer scripts (dist/debian/postinst, postrm): the user unit is enabled for every
# user on installation (from their next login), masked on removal, its enablement gone on purge.
#
# The build goes to .build-package (apart from .build: the static flags would otherwise make each
# build redo the other's work). Environment: DEBFULLNAME/DEBEMAIL for the Maintainer field
# (default: the author of the last commit), SWIFT_BUILD_JOBS for `swift build -j`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD

output=$repo
suite=bookworm
while (( $# > 0 )); do
    case $1 in
        --suite) suite=${2:?--suite needs bookworm or trixie}; shift 2 ;;
        --suite=*) suite=${1#--suite=}; shift ;;
        --output) output=${2:?--output needs a folder}; shift 2 ;;
        --output=*) output=${1#--output=}; shift ;;
        -h|--help) sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "package.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done
mkdir -p "$output"
output=$(cd "$output" && pwd)

# Debian 13: the same two programs (built here, against Debian 12's glibc, which trixie's runs),
# with Depends worked out by dpkg-shlibdeps in a Debian 13 root (scripts/debian13-root.sh), so
# that they name trixie's own packages (libasound2t64, …), not Debian 12's names that trixie only
# Provides; the one library Recommends names is trixie's too. Rebuilding in the root would give
# the same programs needing a newer glibc, for nothing.
case $suite in
    bookworm) suffix=""; pipewire_library=libpipewire-0.3-0; shlibs_root="" ;;
    trixie)
        suffix="+deb13"; pipewire_library=libpipewire-0.3-0t64
        shlibs_root=$(scripts/debian13-root.sh) || { echo "package.sh: no Debian 13 root (scripts/debian13-root.sh)" >&2; exit 1; } ;;
    *) echo "package.sh: --suite takes bookworm or trixie, not '$suite'" >&2; exit 64 ;;
esac

# The package's own revision of the upstream version; raise it for a package-only change.
debian_revision=1$suffix
upstream=$(sed -n 's/^ *static let string = "\([0-9][0-9A-Za-z.+~]*\)"$/\1/p' Sources/mprisd/CLI/Version.swift)
if [[ -z $upstream ]]; then
    echo "package.sh: no version found in Sources/mprisd/CLI/Version.swift (static let string = \"X.Y.Z\")" >&2
    exit 1
fi
version=$upstream-$debian_revision
arch=$(dpkg --print-architecture)

for tool in dpkg-deb dpkg-shlibdeps strip gzip swift; do
    command -v "$tool" >/dev/null || { echo "package.sh: $tool is missing (packages: dpkg-dev, binutils; the Swift toolchain)" >&2; exit 1; }
done

# Release build of the two programs only (the tests and benchmarks are not packaged).
scratch=$repo/.build-package
jobs=(); [[ -n ${SWIFT_BUILD_JOBS:-} ]] && jobs=(-j "$SWIFT_BUILD_JOBS")
build=(swift build -c release --static-swift-stdlib --disable-local-rpath --scratch-path "$scratch" "${jobs[@]}")
started=$SECONDS
"${build[@]}" --product mprisd >&2
"${build[@]}" --product mprisd-control >&2
bin=$("${build[@]}" --show-bin-path)
echo "package.sh: release build took $((SECONDS - started)) s" >&2

# The files, in a debian/ layout: dpkg-shlibdeps wants debian/control and the package's tree under
# debian/PACKAGE (with its DEBIAN folder) to tell the package's own libraries from others.
work=$(mktemp -d "${TMPDIR:-/tmp}/mprisd-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
umask 022
root=$work/debian/mprisd
mkdir -p "$root/DEBIAN"
printf 'Source: mprisd\n\nPackage: mprisd\nArchitecture: %s\n' "$arch" > "$work/debian/control"

for program in mprisd mprisd-control; do
    install -D -m 0755 "$bin/$program" "$root/usr/bin/$program"
    # What dh_strip does: no symbols or notes a user does not need (half the size: 35 MB → 17 MB).
    strip --remove-section=.comment --remove-section=.note --strip-unneeded "$root/usr/bin/$program"
done
install -d -m 0755 "$root/usr/lib/systemd/user" "$root/usr/share/dbus-1/services"
sed 's|@BINDIR@|/usr/bin|g' dist/mprisd.service > "$root/usr/lib/systemd/user/mprisd.service"
sed 's|@BINDIR@|/usr/bin|g' dist/org.mprisd.AudioPolicy.service > "$root/usr/share/dbus-1/services/org.mprisd.AudioPolicy.service"
chmod 0644 "$root/usr/lib/systemd/user/mprisd.service" "$root/usr/share/dbus-1/services/org.mprisd.AudioPolicy.service"

install -d -m 0755 "$root/usr/share/man/man1"
# The page's header carries the version too: taken from the same one place.
sed "s/^\(\.TH MPRISD 1 \"[^\"]*\" \"mprisd \)[^\"]*\"/\1$upstream\"/" docs/mprisd.1 | gzip -9n > "$root/usr/share/man/man1/mprisd.1.gz"
ln -s mprisd.1.gz "$root/usr/share/man/man1/mprisd-control.1.gz"
install -D -m 0644 dist/completions/mprisd.bash "$root/usr/share/bash-completion/completions/mprisd"
install -D -m 0644 dist/completions/_mprisd "$root/usr/share/zsh/vendor-completions/_mprisd"

doc=$root/usr/share/doc/mprisd
install -d -m 0755 "$doc"
gzip -9nc README.md > "$doc/README.md.gz"
# Every page of docs/ beside it (the README links to them), the same way.
for page in docs/*.md; do
    gzip -9nc "$page" > "$doc/$(basename "$page").gz"
done
install -m 0644 dist/debian/copyright "$doc/copyright"
# The one lintian warning that stays, with its reason (dist/debian/lintian-overrides).
install -D -m 0644 dist/debian/lintian-overrides "$root/usr/share/lintian/overrides/mprisd"

# The changelog entry of this build, dated by the last commit (the same tree gives the same file).
if commit_time=$(git log -1 --format=%ct 2>/dev/null) && [[ -n $commit_time ]]; then
    commit=$(git log -1 --format=%h)
    maintainer_default=$(git log -1 --format='%an <%ae>')
else
    commit_time=$(stat -c %Y Sources/mprisd/CLI/Version.swift)
    commit="(not a git checkout)"
    maintainer_default="mprisd maintainers <mprisd@localhost>"
fi
maintainer=$maintainer_default
[[ -n ${DEBFULLNAME:-} && -n ${DEBEMAIL:-} ]] && maintainer="$DEBFULLNAME <$DEBEMAIL>"
export SOURCE_DATE_EPOCH=$commit_time
{
    echo "mprisd ($version) unstable; urgency=medium"
    echo
    echo "  * mprisd $upstream, built from commit $commit by scripts/package.sh."
    echo "    What changed: the README and the project's history."
    echo
    echo " -- $maintainer  $(LC_ALL=C date -u -R -d "@$commit_time")"
} | gzip -9n > "$doc/changelog.Debian.gz"

# Depends: exactly the libraries the two programs link, with the versions their symbols need
# (dist/debian/control adds the two loaded on first use).
if [[ -z $shlibs_root ]]; then
    depends=$(cd "$work" && dpkg-shlibdeps -O debian/mprisd/usr/bin/mprisd debian/mprisd/usr/bin/mprisd-control)
else
    # In the Debian 13 root: a copy of the tree, asked there, removed.
    inside=$(mktemp -d "$shlibs_root/tmp/mprisd-shlibs.XXXXXX")
    cp -a "$work/debian" "$inside/"
    depends=$(chroot "$shlibs_root" /bin/sh -c "cd '${inside#"$shlibs_root"}' && dpkg-shlibdeps -O debian/mprisd/usr/bin/mprisd debian/mprisd/usr/bin/mprisd-control") \
        || { rm -rf "$inside"; echo "package.sh: dpkg-shlibdeps failed in $shlibs_root" >&2; exit 1; }
    rm -rf "$inside"
fi
depends=${depends#shlibs:Depends=}
if [[ -z $depends ]]; then
    echo "package.sh: dpkg-shlibdeps found no dependencies" >&2
    exit 1
fi

find "$root" -path "$root/DEBIAN" -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z \
    | (cd "$root" && xargs -0 md5sum) > "$root/DEBIAN/md5sums"
installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" \
    -e "s|@INSTALLED_SIZE@|$installed_size|" -e "s|@DEPENDS@|$depends|" -e "s|@PIPEWIRE_LIBRARY@|$pipewire_library|" dist/debian/control > "$root/DEBIAN/control"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
install -m 0755 dist/debian/postinst dist/debian/postrm "$root/DEBIAN/"
# Every file dated by the last commit, so that the same commit makes the same package.
find "$root" -exec touch -h -d "@$commit_time" {} +

deb=$output/mprisd_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >&2
echo "package.sh: $(du -k "$deb" | cut -f1) KiB; Depends: $depends" >&2
echo "$deb"
