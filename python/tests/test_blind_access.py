"""Blind scoring integrity: a rater's saved scores and the model reveal need that rater's token; blind-export never
writes packets next to (or around) the keys.

The page tests use a temporary project folder (store, keys, tokens) over the published warehouse, so the repo's
data/ is never written.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from evalhouse import paths
from evalhouse.ratings import blind, blind_access, blind_app

PAGE = Path(__file__).resolve().parents[2] / "app" / "views" / "blind_scoring.py"
pytestmark = pytest.mark.skipif(not paths.published_db().is_file(), reason="run `make build` first")


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


# ---------------------------------------------------------------------------------------------------------------------
def test_token_issue_verify_reissue(tmp_path):
    token = blind_access.issue("alice", tmp_path)
    assert len(token) >= 32 and blind_access.verify("alice", token, tmp_path)
    assert not blind_access.verify("alice", token[:-1] + ("A" if token[-1] != "A" else "B"), tmp_path)
    assert not blind_access.verify("alice", "", tmp_path) and not blind_access.verify("alice", None, tmp_path)
    assert not blind_access.verify("bob", token, tmp_path)  # a token opens its own rater only
    # Only the hash is kept, in a file named by a hash of the rater id (any name is a safe file name).
    (f,) = _files(tmp_path)
    assert f == blind_access.token_file("alice", tmp_path) and "alice" not in f.name
    assert token not in f.read_text(encoding="utf-8")
    assert json.loads(f.read_text(encoding="utf-8"))["rater_id"] == "alice"
    # A second claim of the same name is refused; the lead's reissue replaces it and the old token stops working.
    with pytest.raises(blind_access.TokenExists, match="blind-token alice --reissue"):
        blind_access.issue("alice", tmp_path)
    new = blind_access.issue("alice", tmp_path, replace=True)
    assert blind_access.verify("alice", new, tmp_path) and not blind_access.verify("alice", token, tmp_path)
    assert blind_access.token_file("../../x", tmp_path).parent == tmp_path
    with pytest.raises(ValueError):
        blind_access.issue("  ", tmp_path)


def test_export_refuses_a_folder_that_is_holds_or_lies_in_the_keys_folder(warehouse, tmp_path):
    keys = tmp_path / "blind" / "keys"
    keys.mkdir(parents=True)
    (keys / "000_header.csv").write_text("export_id\n")
    before = _files(tmp_path)
    for out, relation in ((tmp_path / "blind", "contains"), (keys, "is the"), (keys / "packets", "is inside"),
                          (tmp_path, "contains")):
        with pytest.raises(blind.ExportError, match=f"{relation}.* blind keys folder"):
            blind.export(warehouse, out, "larkfield", seed=1, export_id="x", keys_dir=keys, items=["S07"])
        assert _files(tmp_path) == before and not (keys / "packets").exists()  # nothing written
    # a sibling folder is fine
    blind.export(warehouse, tmp_path / "blind" / "exports" / "x", "larkfield", seed=1, export_id="x", keys_dir=keys,
                 items=["S07"])
    assert (keys / "x.csv").is_file()


def test_cli_blind_export_into_the_blind_folder_is_refused(tmp_path, monkeypatch):
    from evalhouse.cli import app

    (tmp_path / "data" / "blind" / "keys").mkdir(parents=True)
    (tmp_path / "dbt_project.yml").write_text("name: x\n")
    monkeypatch.setenv("EVALHOUSE_PUBLISHED_DB", str(paths.published_db()))
    monkeypatch.setenv("EVALHOUSE_PROJECT_DIR", str(tmp_path))
    before = _files(tmp_path)
    res = CliRunner().invoke(app, ["blind-export", str(tmp_path / "data" / "blind"), "--export-id", "x"])
    assert res.exit_code == 1
    assert "contains the blind keys folder" in res.output
    assert _files(tmp_path) == before


def test_cli_blind_token(tmp_path, monkeypatch):
    from evalhouse.cli import app

    monkeypatch.setenv("EVALHOUSE_PROJECT_DIR", str(tmp_path))
    res = CliRunner().invoke(app, ["blind-token", "camille"])
    assert res.exit_code == 0, res.output
    token = res.output.strip().rsplit(" ", 1)[-1]
    assert blind_access.verify("camille", token)
    again = CliRunner().invoke(app, ["blind-token", "camille"])
    assert again.exit_code == 1 and "--reissue" in again.output
    re = CliRunner().invoke(app, ["blind-token", "camille", "--reissue"])
    assert re.exit_code == 0 and not blind_access.verify("camille", token)


# ---------------------------------------------------------------------------------------------------------------------
@pytest.fixture
def project(warehouse, tmp_path, monkeypatch):
    """A project folder with one blind export (M01) and alice's saved scores for every reply: packet submitted."""
    monkeypatch.setenv("EVALHOUSE_PUBLISHED_DB", str(paths.published_db()))
    monkeypatch.setenv("EVALHOUSE_PROJECT_DIR", str(tmp_path))
    (tmp_path / "data" / "ratings").mkdir(parents=True)
    blind.export(warehouse, tmp_path / "out", "larkfield", seed=3, export_id="t", items=["M01"])
    packet = blind_app.load_packet("t-M01")
    for letter in packet.letters:
        blind_app.save_reply(packet, letter, "alice", {c["criterion"]: 2 for c in packet.criteria}, f"alice {letter}")
    assert blind_app.is_submitted(packet, blind_app.saved_scores(packet, "alice"))
    return tmp_path


def _page(rater: str) -> AppTest:
    at = AppTest.from_file(str(PAGE), default_timeout=60)
    at.query_params.update({"rater": rater, "packet": "t-M01"})
    return at


def _shows_alices_work(at: AppTest) -> bool:
    text = " ".join([s.value for s in at.success] + [c.value for c in at.caption] + [h.value for h in at.subheader])
    return ("Saved:" in text or "alice A" in text or "Packet submitted" in text
            or any("model run" in d.value.columns for d in at.dataframe))


def test_a_name_in_the_url_opens_nothing(project):
    # alice has saved work but no token yet: the page asks for one from the lead, shows nothing of hers
    at = _page("alice").run()
    assert not at.exception and not _shows_alices_work(at)
    assert "blind-token alice" in at.warning[0].value
    assert not [b for b in at.button if b.key == "bs_issue"]  # nobody can claim a name with saved work
    token = blind_access.issue("alice")
    # a wrong token: still nothing
    at = _page("alice").run()
    at.text_input(key="bs_token").input("not-the-token").run()
    assert "not alice's token" in at.error[0].value and not _shows_alices_work(at)
    assert not [b for b in at.button if b.key.startswith("bs_save_")]
    # the right token: her scores and the reveal
    at.text_input(key="bs_token").input(token).run()
    assert not at.exception and not at.error
    assert any(s.value.startswith("Saved: correctness 2") for s in at.success)
    assert any("Packet submitted" in h.value for h in at.subheader)
    reveal = next(d.value for d in at.dataframe if "model run" in d.value.columns)
    assert "Gemma 3 4B (local)" in set(reveal["model run"])
    assert token not in str(dict(at.query_params))  # the token never goes into the URL


def test_a_new_rater_gets_a_token_once_and_sees_only_their_own_scores(project):
    at = _page("mallory").run()
    assert not _shows_alices_work(at)
    at.button(key="bs_issue").click().run()
    assert not at.exception and not at.error
    token = re.search(r"Your token: `([^`]+)`", at.success[0].value).group(1)
    assert blind_access.verify("mallory", token)
    # mallory scores from scratch: a form for every reply, none of alice's scores, no reveal
    packet = blind_app.load_packet("t-M01")
    assert {b.key for b in at.button if b.key.startswith("bs_save_")} == {f"bs_save_{x}" for x in packet.letters}
    assert not _shows_alices_work(at)
    # a second visitor typing "mallory" cannot claim the name again
    other = _page("mallory").run()
    assert not [b for b in other.button if b.key == "bs_issue"] and not _shows_alices_work(other)
