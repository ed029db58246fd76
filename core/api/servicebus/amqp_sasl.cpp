// SPDX-License-Identifier: MIT
#include "api/servicebus/amqp_sasl.h"

#include <proton/sasl.h>
#include <proton/sasl_plugin.h>

#include <cstring>
#include <string>

namespace relaydesk {

namespace {

void freeNothing(pn_transport_t *) {}
const char *mechanisms(pn_transport_t *) { return "ANONYMOUS PLAIN"; }
bool initServer(pn_transport_t *transport)
{
    pnx_sasl_set_desired_state(transport, SASL_POSTED_MECHANISMS);   // offer them first
    return true;
}
bool noClient(pn_transport_t *) { return false; }
void writeNothing(pn_transport_t *) {}
void noChallenge(pn_transport_t *, const pn_bytes_t *) {}
bool noMechanisms(pn_transport_t *, const char *) { return false; }
bool noEncryption(pn_transport_t *) { return false; }
ssize_t noEncryptionSize(pn_transport_t *) { return 0; }
ssize_t noCoding(pn_transport_t *, pn_bytes_t, pn_bytes_t *) { return 0; }

// ANONYMOUS: the trace as the user; PLAIN: "authzid\0authcid\0password",
// the authcid as the user. Anything else fails.
void processInit(pn_transport_t *transport, const char *mechanism, const pn_bytes_t *received)
{
    if (std::strcmp(mechanism, "ANONYMOUS") == 0) {
        pnx_sasl_set_succeeded(transport, "anonymous", nullptr);
    } else if (std::strcmp(mechanism, "PLAIN") == 0 && received && received->size > 0) {
        const std::string response(received->start, received->size);
        const std::size_t first = response.find('\0');
        const std::size_t second = first == std::string::npos ? first : response.find('\0', first + 1);
        if (second == std::string::npos) {
            pnx_sasl_set_failed(transport);
        } else {
            const std::string user = response.substr(first + 1, second - first - 1);
            pnx_sasl_set_succeeded(transport, user.c_str(), nullptr);
        }
    } else {
        pnx_sasl_set_failed(transport);
    }
    pnx_sasl_set_desired_state(transport, SASL_POSTED_OUTCOME);
}

const pnx_sasl_implementation kAnonymousAndPlain = {
    freeNothing, mechanisms, initServer, noClient, writeNothing, processInit, noChallenge,
    noMechanisms, noChallenge, noChallenge, noEncryption, noEncryptionSize, noCoding, noCoding,
};

} // namespace

void acceptAnonymousAndPlain(pn_transport_t *transport)
{
    pn_sasl_t *sasl = pn_sasl(transport);
    pn_sasl_set_allow_insecure_mechs(sasl, true);   // PLAIN without TLS: loopback, as the emulator
    pnx_sasl_set_implementation(transport, &kAnonymousAndPlain, nullptr);
}

} // namespace relaydesk
