"""Passkeys (WebAuthn, with the ``webauthn`` library): keep one's player after clearing cookies, and sign in with it
on another device.  No passwords, no email.

Each ceremony is two requests: the options (with a challenge) and the browser's answer.  The challenge travels
to the browser and back sealed with the server's secret and the time (``Identities.seal``), so any process of a
cluster can check the answer, within ``CEREMONY_SECONDS``.  The relying party is the host the page was loaded
from; the origin, that host with the page's scheme.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
)

from dehla.web.endpoints.common import body, error, shared
from dehla.web.messages import WebError, register
from dehla.web.players import is_https, player_of

__all__ = ["register_options", "register_passkey", "login_options", "login", "CEREMONY_SECONDS"]

#: How long a passkey ceremony may take, from the options to the answer, in seconds.
CEREMONY_SECONDS = 300

register(
    {
        "passkey_failed": "The passkey could not be checked; try again.",
        "passkey_unknown": "This passkey belongs to no player here.",
    }
)


def _relying_party(request: Request) -> tuple[str, str]:
    """The relying party's id (the host, without the port) and the page's origin."""
    host = request.headers.get("host", request.url.netloc)
    scheme = "https" if is_https(request.scope) else "http"
    return host.rsplit(":", 1)[0] if not host.endswith("]") else host, f"{scheme}://{host}"


def _options(options: Any, state: str) -> Response:
    return JSONResponse({"options": json.loads(options_to_json(options)), "state": state})


async def register_options(request: Request) -> Response:
    """The options for ``navigator.credentials.create``: a passkey for the asking player."""
    player = player_of(request.scope)
    if player is None:
        return error(WebError("no_player", "forbidden"))
    found = shared(request)
    rp_id, _ = _relying_party(request)
    name = await found.storage.player_name(player) or "dehla"
    existing = await found.storage.passkeys_of(player)
    options = generate_registration_options(
        rp_id=rp_id,
        rp_name="dehla",
        user_name=name,
        user_id=player.encode(),
        authenticator_selection=AuthenticatorSelectionCriteria(resident_key=ResidentKeyRequirement.REQUIRED),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(item)) for item in existing],
    )
    state = found.identities.seal(
        {"do": "register", "player": player, "challenge": bytes_to_base64url(options.challenge)}
    )
    return _options(options, state)


async def _answer(request: Request, ceremony: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The browser's answer to a ceremony: its credential (a JSON object) and the state sealed with its options."""
    data = await body(request)
    if not isinstance(data, dict) or not isinstance(data.get("credential"), dict):
        raise WebError("passkey_failed")
    state = shared(request).identities.unseal(data.get("state"), CEREMONY_SECONDS)
    if state is None or state.get("do") != ceremony:
        raise WebError("passkey_failed")
    return data["credential"], state


async def register_passkey(request: Request) -> Response:
    """The browser's new credential: kept for the player the ceremony began for."""
    found = shared(request)
    try:
        credential, state = await _answer(request, "register")
        player = player_of(request.scope)
        if state.get("player") != player or player is None:
            raise WebError("passkey_failed")
        rp_id, origin = _relying_party(request)
        try:
            verified = verify_registration_response(
                credential=credential,
                expected_challenge=base64url_to_bytes(state["challenge"]),
                expected_rp_id=rp_id,
                expected_origin=origin,
            )
        except (WebAuthnException, ValueError, TypeError, KeyError):
            raise WebError("passkey_failed") from None
    except WebError as refusal:
        return error(refusal)
    await found.storage.add_passkey(
        bytes_to_base64url(verified.credential_id),
        player,
        bytes_to_base64url(verified.credential_public_key),
        verified.sign_count,
    )
    return JSONResponse({"ok": True, "passkeys": len(await found.storage.passkeys_of(player))})


async def login_options(request: Request) -> Response:
    """The options for ``navigator.credentials.get``: any passkey of this site (the browser offers its own)."""
    found = shared(request)
    rp_id, _ = _relying_party(request)
    options = generate_authentication_options(rp_id=rp_id)
    state = found.identities.seal({"do": "login", "challenge": bytes_to_base64url(options.challenge)})
    return _options(options, state)


async def login(request: Request) -> Response:
    """The browser's signed answer: this browser becomes the passkey's player (its cookie)."""
    found = shared(request)
    try:
        credential, state = await _answer(request, "login")
        credential_id = credential.get("id")
        if not isinstance(credential_id, str):
            raise WebError("passkey_failed")
        known = await found.storage.passkey(credential_id)
        if known is None:
            raise WebError("passkey_unknown", "not_found")
        player, public_key, sign_count = known
        rp_id, origin = _relying_party(request)
        try:
            verified = verify_authentication_response(
                credential=credential,
                expected_challenge=base64url_to_bytes(state["challenge"]),
                expected_rp_id=rp_id,
                expected_origin=origin,
                credential_public_key=base64url_to_bytes(public_key),
                credential_current_sign_count=sign_count,
            )
        except (WebAuthnException, ValueError, TypeError, KeyError):
            raise WebError("passkey_failed") from None
    except WebError as refusal:
        return error(refusal)
    await found.storage.passkey_used(credential_id, verified.new_sign_count)
    name = await found.storage.player_name(player) or ""
    response = JSONResponse({"ok": True, "name": name})
    response.headers.append("set-cookie", found.identities.cookie(player, is_https(request.scope)))
    return response
