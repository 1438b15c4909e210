# SPDX-License-Identifier: BSD-2-Clause
"""Print the directory `make install` puts the warpspeed Python package in, for PREFIX.

The package is pure Python, so it goes where the interpreter that runs this looks for
modules under PREFIX: the first of its site directories (site.getsitepackages(), which
lists them whether or not they exist yet) inside PREFIX/lib/. On Debian that is
/usr/local/lib/python3.X/dist-packages for PREFIX=/usr/local and /usr/lib/python3/dist-packages
for PREFIX=/usr, where Debian's own python3 finds them; a plain `sysconfig` purelib would
name site-packages, which Debian's python3 never reads. For a PREFIX the interpreter does
not search (/opt/..., a staging tree), the standard layout PREFIX/lib/python3.X/site-packages
is printed, and the user adds it to PYTHONPATH.

Usage: python3 packaging/pythondir.py PREFIX
"""
import os
import site
import sys
import sysconfig


def python_dir(prefix):
    prefix = os.path.normpath(prefix)
    lib = os.path.join(prefix, "lib") + os.sep
    for d in site.getsitepackages():
        if os.path.normpath(d).startswith(lib):
            return os.path.normpath(d)
    return sysconfig.get_path("purelib", "posix_prefix", vars={"base": prefix})


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].startswith("/"):
        sys.exit("usage: pythondir.py PREFIX (an absolute path)")
    print(python_dir(sys.argv[1]))
