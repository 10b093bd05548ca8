"""Rewrites a source distribution so the same sources give the same bytes:
entries sorted by name, each with the one time given, owner and group 0
with no names, and a gzip header with no time or file name (setuptools
stamps the build's own time into the sdist).

Usage: python normalize-sdist.py <in.tar.gz> <out.tar.gz> <seconds since 1970>
"""

import gzip
import sys
import tarfile


def main(source, target, mtime):
    with tarfile.open(source, "r:gz") as tin:
        members = sorted(tin.getmembers(), key=lambda m: m.name)
        with open(target, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
            with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tout:
                for member in members:
                    data = tin.extractfile(member) if member.isfile() else None
                    member.mtime = mtime
                    member.uid = member.gid = 0
                    member.uname = member.gname = ""
                    member.pax_headers = {}
                    tout.addfile(member, data)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
