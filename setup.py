"""setup.py -- the build step of `pip install .` (pyproject.toml): builds the
shared library build/libdrtopk.so when it is missing (./configure.sh, with
--cpu-only where no nvcc is found, then ninja) and copies it into the
package, so the installed module loads the same library the C programs are
built from.  The wheel carries that native library, so it is a platform wheel
(its tag names this machine's platform, e.g. linux_x86_64), which the
Distribution below declares; setuptools' own bdist_wheel (or the wheel
package's, on an older setuptools) writes it.  setuptools' own build files go
to build/python, beside the C build.  $DRTOPK_CONFIGURE_ARGS adds
configure.sh options (e.g. --arch=sm_90)."""
import os
import shlex
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.abspath(__file__))
LIBRARY = os.path.join("build", "libdrtopk.so")


class BuildWithLibrary(build_py):
    def run(self):
        lib = os.path.join(ROOT, LIBRARY)
        if not os.path.exists(lib):
            if not os.path.exists(os.path.join(ROOT, "build", "config.ninja")):
                args = shlex.split(os.environ.get("DRTOPK_CONFIGURE_ARGS", ""))
                if shutil.which("nvcc") is None and not os.path.exists("/usr/local/cuda/bin/nvcc"):
                    args.append("--cpu-only")
                subprocess.check_call(["./configure.sh", "--no-install"] + args, cwd=ROOT)
            subprocess.check_call(["ninja", LIBRARY], cwd=ROOT)
        super().run()
        dest = os.path.join(self.build_lib, "drtopk")
        os.makedirs(dest, exist_ok=True)
        shutil.copy2(lib, os.path.join(dest, "libdrtopk.so"))


class PlatformDistribution(Distribution):
    """A distribution holding native code: its wheel is tagged for this platform, not py3-none-any."""

    def has_ext_modules(self):
        return True


os.makedirs(os.path.join(ROOT, "build", "python"), exist_ok=True)
setup(cmdclass={"build_py": BuildWithLibrary}, distclass=PlatformDistribution,
      options={"build": {"build_base": "build/python"}, "egg_info": {"egg_base": "build/python"}})
