"""The local server relays the players' view between devices (docs/hebergement.md, « La vue
des joueurs »): ``tools/serve_site.py`` (``SiteServer``) keeps the last view the GM's page
posts at ``/__joueurs__/etat`` and hands it to a players' page that asks for a newer one; a
bad post changes nothing; ``--reseau`` is opt-in and says the address to open."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tools import serve_site
from tools.browser_kit import PLAYERS_PATH, SiteServer


def _post(url: str, body: bytes) -> int:
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


def _get(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url, timeout=20) as answer:
        data: dict[str, object] = json.loads(answer.read())
        return data


def test_the_server_relays_the_player_view(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<p>livre</p>", encoding="utf-8")
    view = {"type": "etat", "titre": "Système d100", "tour": "Round 1",
            "phrase": "Round 1\u00a0: au tour d’Aldric.", "ordre": []}
    with SiteServer(tmp_path) as server:
        url = server.url.rstrip("/") + PLAYERS_PATH
        assert _post(url, json.dumps(view, ensure_ascii=False).encode()) == 204
        first = _get(url + "?depuis=0")
        assert first["version"] == 1 and first["etat"] == view
        # refused: not a view, too big, elsewhere; the view kept is the last good one
        assert _post(url, b'{"type": "autre"}') == 400
        assert _post(url, b"pas du json") == 400
        assert _post(url, b"x" * (64 * 1024 + 1)) == 413
        assert _post(server.url + "index.html", b"{}") == 404
        assert _get(url + "?depuis=0")["etat"] == view
        view["tour"] = "Round 2"
        assert _post(url, json.dumps(view).encode()) == 204
        assert _get(url + "?depuis=1") == {"version": 2, "etat": view}


def test_reseau_is_opt_in_said_and_listens_beyond_loopback(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "index.html").write_text("<p>livre</p>", encoding="utf-8")
    bound: list[str] = []
    real = SiteServer.__enter__

    def enter(self: SiteServer) -> SiteServer:
        bound.append(str(self.httpd.server_address[0]))
        return real(self)

    def stop(_seconds: float) -> None:
        raise KeyboardInterrupt  # Ctrl+C at once

    monkeypatch.setattr(SiteServer, "__enter__", enter)
    monkeypatch.setattr("time.sleep", stop)
    assert serve_site.main(["--dir", str(tmp_path), "--port", "0"]) == 0
    alone = capsys.readouterr().out
    assert serve_site.main(["--dir", str(tmp_path), "--port", "0", "--reseau"]) == 0
    shared = capsys.readouterr().out
    assert bound == ["127.0.0.1", "0.0.0.0"]
    assert "Réseau local" not in alone
    assert "Réseau local\u00a0: le site est servi à tout appareil de ce réseau" in shared
    assert "/_static/escarmouche-joueurs.html" in shared
