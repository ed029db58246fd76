# SPDX-License-Identifier: MIT
"""cmake/check_layering.py on small trees made for each case
(docs/architecture.md §2): a wrong-way include fails the build whether it is
"quoted" or <angled>, the store's headers and broker/store_calls.h are only
for core/store, core/broker and core/engine, ui/ includes no protocol code
(core/api) and of core/host only its door, and the right-way includes pass.
Usage: check_layering_test.py PATH/TO/check_layering.py
"""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../cmake/check_layering.py")

HEADERS = ["core/store/database.h", "core/broker/store_calls.h", "core/broker/result.h",
           "core/engine/broker_engine.h", "core/host/broker_host.h", "core/api/zaqar/zaqar_api.h",
           "core/host/serve_options.h", "core/host/policy_command.h",
           "core/api/sqs/sqs_messages.h", "core/api/servicebus/amqp_message.h", "core/host/broker_http_server.h",
           "core/connections/broker_connection.h", "core/connections/embedded/embedded_messages.h",
           "core/broker/zaqar/zaqar_limits.h", "core/mock/mock_endpoints.h"]


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
        # ui/ includes the boundary and the shared model types, never protocol code or the host
        ("ui/models/a.cpp", '"api/sqs/sqs_messages.h"', False),
        ("ui/dialogs/a.cpp", "<api/servicebus/amqp_message.h>", False),
        ("ui/views/a.cpp", '"api/zaqar/zaqar_api.h"', False),
        ("ui/views/a.cpp", '"host/broker_http_server.h"', False),
        ("ui/views/a.cpp", '"host/broker_host.h"', False),          # a page takes the EmbeddedBroker
        ("ui/views/main_window_broker.cpp", '"host/broker_host.h"', True),   # the host's door: MainWindow starts it
        ("ui/models/preferences.h", '"host/serve_options.h"', True),
        ("ui/charts/policy_render_command.cpp", '"host/policy_command.h"', True),   # the `policy` commands
        ("ui/views/a.cpp", '"host/policy_command.h"', False),
        ("ui/models/a.cpp", '"connections/embedded/embedded_messages.h"', True),
        ("ui/widgets/a.cpp", '"connections/broker_connection.h"', True),
        ("ui/views/a.cpp", '"broker/zaqar/zaqar_limits.h"', True),
        ("ui/views/a.cpp", '"mock/mock_endpoints.h"', True),
        ("ui/views/a.cpp", '"engine/broker_engine.h"', True),
        ("app/a.cpp", '"host/broker_http_server.h"', True),         # the rule is ui's
        # a remote connection speaks to a broker as any client would; embedded/ is the window's way in
        ("core/connections/a.cpp", '"api/sqs/sqs_messages.h"', False),
        ("core/connections/embedded/a.cpp", '"api/sqs/sqs_messages.h"', True),
    ]

    def test_cases(self):
        for source, include, passes in self.CASES:
            with self.subTest(source=source, include=include):
                status, output = check(source, [include])
                self.assertEqual(status == 0, passes, output)
                if not passes:
                    self.assertIn(source + ":1:", output)
                    if source.startswith("ui/"):   # named by the folder it reached, with the way in
                        self.assertRegex(output, r"must not include core/(api|host) \(.*\): \w")


if __name__ == "__main__":
    unittest.main(verbosity=2)
