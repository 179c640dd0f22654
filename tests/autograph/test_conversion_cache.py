"""Converted functions on disk (pyct/conversion_cache.py): a hit skips parsing and the
converters and gives the same code and origin map; damaged entries, edits, options and
an unusable folder never give a wrong or stale conversion."""
import os
import subprocess
import sys
import textwrap

import pytest

from autograph_lite import errors
from autograph_lite.autograph import api, pipeline
from autograph_lite.autograph.pyct import conversion_cache, parser, transpiler


def clipped_sum(xs, limit):
    total = 0.0
    for x in xs:
        if total > limit:
            break
        total += x
    return total


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """A cache folder of its own, no in-memory conversions, and a count of the times
    the converters actually run."""
    monkeypatch.setenv("AUTOGRAPH_LITE_CACHE_DIR", str(tmp_path / "cache"))
    runs = []
    real = pipeline.convert_tree
    monkeypatch.setattr(pipeline, "convert_tree", lambda node, ctx: runs.append(1) or
                        real(node, ctx))

    def convert(fn, recursive=True):
        monkeypatch.setattr(transpiler, "_CODE_CACHE", {})
        return api.convert_plain(fn, recursive)
    convert.runs = runs
    convert.folder = tmp_path / "cache" / "autograph"
    return convert


def _entry(fn, recursive=True):
    return conversion_cache.key(fn, *parser.source_lines(fn), recursive)


def test_a_hit_skips_the_converters_and_gives_the_same_code_and_origin_map(fresh):
    first = fresh(clipped_sum)
    assert fresh.runs == [1] and len(list(fresh.folder.glob("*.json"))) == 1
    again = fresh(clipped_sum)
    assert fresh.runs == [1]  # read from disk
    assert again.ag__converted.source == first.ag__converted.source
    assert again.ag__converted.function_source == first.ag__converted.function_source
    assert errors._ORIGINS[again.ag__converted.path] == errors._ORIGINS[first.ag__converted.path]
    assert again([1.0, 2.0, 3.0, 4.0], 2.5) == clipped_sum([1.0, 2.0, 3.0, 4.0], 2.5) == 3.0
    # the map still points every generated line of the loop at this file
    lines = errors._ORIGINS[again.ag__converted.path].values()
    assert {f for f, _ in lines} == {__file__}


def test_options_and_edits_are_other_entries(fresh):
    lines, first = parser.source_lines(clipped_sum)
    key = conversion_cache.key(clipped_sum, lines, first, True)
    assert key != conversion_cache.key(clipped_sum, lines, first, False)
    assert key != conversion_cache.key(clipped_sum, lines, first + 1, True)  # moved down
    edited = [line.replace("total > limit", "total >= limit") for line in lines]
    assert key != conversion_cache.key(clipped_sum, edited, first, True)
    fresh(clipped_sum, True)
    fresh(clipped_sum, False)
    assert fresh.runs == [1, 1]


@pytest.mark.parametrize("damage", ["garbage", "truncated", "altered"])
def test_a_damaged_entry_is_a_miss_and_is_rewritten(fresh, damage):
    fresh(clipped_sum)
    path = fresh.folder / f"{_entry(clipped_sum)}.json"
    text = path.read_text()
    path.write_text({"garbage": "\x00not json", "truncated": text[:len(text) // 2],
                     "altered": text.replace("limit", "limjt")}[damage])
    g = fresh(clipped_sum)
    assert fresh.runs == [1, 1]  # converted again, not executed from the damaged entry
    assert g([1.0, 2.0, 3.0, 4.0], 2.5) == 3.0
    assert path.read_text() == text  # and stored afresh


def test_no_folder_or_an_unusable_one_keeps_conversions_in_memory(fresh, monkeypatch,
                                                                 tmp_path):
    monkeypatch.setenv("AUTOGRAPH_LITE_CACHE_DIR", "off")
    assert fresh(clipped_sum)([5.0], 1.0) == 5.0
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    monkeypatch.setenv("AUTOGRAPH_LITE_CACHE_DIR", str(blocker))  # cannot hold a folder
    assert fresh(clipped_sum)([5.0], 1.0) == 5.0
    assert fresh.runs == [1, 1] and not fresh.folder.exists()


def test_a_new_process_converts_once_and_then_reads_the_entry(tmp_path):
    """Across processes, as users see it: the second run's conversion does not parse or
    convert, and its staged error still names the user's line."""
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent("""
        import numpy as np
        import autograph_lite as ag
        from autograph_lite.autograph import pipeline
        runs = []
        real = pipeline.convert_tree
        pipeline.convert_tree = lambda n, c: runs.append(1) or real(n, c)

        @ag.defun
        def f(x, i):
            if np.sum(x) > 0:
                y = x[i]
            else:
                y = -x[0]
            return y

        print(f(np.array([-1.0, -2.0]), np.int64(5)).numpy(), end=" ")
        try:
            f(np.array([1.0, 2.0]), np.int64(5))
        except IndexError as e:
            print("prog.py:12" in str(e), end=" ")
        print(len(runs))
    """))
    env = dict(os.environ, AUTOGRAPH_LITE_CACHE_DIR=str(tmp_path / "cache"),
               AUTOGRAPH_LITE_QUIET="1")
    outs = [subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                           env=env, timeout=300) for _ in range(2)]
    assert [p.returncode for p in outs] == [0, 0], outs[-1].stderr
    assert [p.stdout.split() for p in outs] == [["1.0", "True", "1"], ["1.0", "True", "0"]]
