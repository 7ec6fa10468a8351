"""Safe file writes: new files never replace existing ones; replaced files are swapped whole, readable by all."""
import stat

import pytest

from evalhouse.files import copy_replace, write_new, write_replace


def test_write_new_refuses_an_existing_file_and_leaves_it_untouched(tmp_path):
    f = write_new(tmp_path / "a" / "r.csv", b"first\n")
    with pytest.raises(FileExistsError):
        write_new(f, b"second\n")
    assert f.read_bytes() == b"first\n"
    assert [p.name for p in f.parent.iterdir()] == ["r.csv"]  # no temporary file left behind
    assert stat.S_IMODE(f.stat().st_mode) == 0o644


def test_replace_swaps_the_whole_file(tmp_path):
    f = write_replace(tmp_path / "x.txt", b"old")
    src = write_new(tmp_path / "src.txt", b"new contents")
    copy_replace(src, f)
    assert f.read_bytes() == b"new contents" and stat.S_IMODE(f.stat().st_mode) == 0o644
    write_replace(f, b"again")
    assert f.read_bytes() == b"again" and sorted(p.name for p in tmp_path.iterdir()) == ["src.txt", "x.txt"]
