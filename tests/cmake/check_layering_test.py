# SPDX-License-Identifier: MIT
"""cmake/check_layering.py on small trees made for each case
(docs/architecture.md §2): a wrong-way include fails the build whether it is
"quoted" or <angled>, the store's headers and broker/store_calls.h are only
for core/store, core/broker and core/engine, and the right-way includes pass.
Usage: check_layering_test.py PATH/TO/check_layering.py
"""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../cmake/check_layering.py")

HEADERS = ["core/store/database.h", "core/broker/store_calls.h", "core/broker/result.h",
           "core/engine/broker_engine.h", "core/host/broker_host.h", "core/api/zaqar/zaqar_api.h"]


def check(source, includes):
    """Runs the check on a tree of HEADERS plus SOURCE holding INCLUDES; (status, output)."""
    with tempfile.TemporaryDirectory() as root:
        for header in HEADERS:
            os.makedirs(os.path.join(root, os.path.dirname(header)), exist_ok=True)
            open(os.path.join(root, header), "w").close()
        os.makedirs(os.path.join(root, os.path.dirname(source)), exist_ok=True)
        with open(os.path.join(root, source), "w") as text:
            text.write("".join("#include %s\n" % include for include in includes))
        done = subprocess.run([sys.executable, SCRIPT, root], capture_output=True, text=True)
        return done.returncode, done.stdout


class CheckLayeringTest(unittest.TestCase):
    CASES = [
        # (file, include, passes)
        ("core/broker/a.cpp", '"engine/broker_engine.h"', False),   # up, quoted
        ("core/broker/a.cpp", "<engine/broker_engine.h>", False),   # up, angled
        ("core/engine/a.cpp", "<broker/result.h>", True),           # down, angled
        ("core/engine/a.cpp", '"broker/store_calls.h"', True),      # the engine is the door's other half
        ("core/broker/a.cpp", '"store/database.h"', True),
        ("core/api/zaqar/a.cpp", '"broker/store_calls.h"', False),  # SQL above the engine
        ("core/api/zaqar/a.cpp", "<store/database.h>", False),
        ("core/host/a.cpp", '"store/database.h"', False),
        ("core/host/a.cpp", '"engine/broker_engine.h"', True),
        ("core/api/zaqar/a.cpp", "<QObject>", True),                # not ours
    ]

    def test_cases(self):
        for source, include, passes in self.CASES:
            with self.subTest(source=source, include=include):
                status, output = check(source, [include])
                self.assertEqual(status == 0, passes, output)
                if not passes:
                    self.assertIn(source + ":1:", output)


if __name__ == "__main__":
    unittest.main(verbosity=2)
