from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sklearn.svm import SVC

from scrapy_denoise.models.modelfile import MAX_MODEL_BYTES
from scrapy_denoise.models.svm import ModelFormatError, SvmModel


def _data(seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(200, 4))
    y = (x[:, 0] + 0.5 * x[:, 1] ** 2 - x[:, 2] > 0.3).astype(int)
    return x, y


@pytest.mark.parametrize(
    "params",
    [
        {"kernel": "rbf", "gamma": 0.7, "C": 3.0},
        {"kernel": "rbf", "gamma": "scale"},
        {"kernel": "poly", "degree": 3, "gamma": 0.5, "coef0": 1.0},
        {"kernel": "linear"},
    ],
)
def test_decision_agrees_with_sklearn(params: dict[str, object], tmp_path: Path) -> None:
    x, y = _data()
    svc = SVC(**params).fit(x, y)
    model = SvmModel.from_sklearn(svc, feature_names=["a", "b", "c", "d"])
    model.save(tmp_path / "m.json")
    loaded = SvmModel.load(tmp_path / "m.json")
    probe, _ = _data(seed=11)
    np.testing.assert_allclose(loaded.decision(probe), svc.decision_function(probe), atol=1e-5)


def test_probability_uses_the_stored_platt_parameters() -> None:
    x, y = _data()
    model = SvmModel.from_sklearn(SVC(kernel="rbf").fit(x, y), feature_names=list("abcd"))
    model.prob_a, model.prob_b = -1.5, 0.25
    d = model.decision(x)
    np.testing.assert_allclose(model.probability(x), 1 / (1 + np.exp(-1.5 * d + 0.25)))
    restored = SvmModel.from_dict(model.to_dict())
    np.testing.assert_allclose(restored.probability(x), model.probability(x))


def test_scaling_is_applied_before_the_kernel() -> None:
    x, y = _data()
    scale, offset = np.array([2.0, 0.5, 1.0, 3.0]), np.array([0.1, -0.2, 0.0, 1.0])
    svc = SVC(kernel="rbf", gamma=0.3).fit(x * scale + offset, y)
    model = SvmModel.from_sklearn(svc, feature_names=list("abcd"), scale=scale, offset=offset)
    np.testing.assert_allclose(
        model.decision(x), svc.decision_function(x * scale + offset), atol=1e-6
    )


def test_loading_rejects_other_formats(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "pickle"}))
    with pytest.raises(ModelFormatError, match="not a scrapy-denoise/svm@1 model"):
        SvmModel.load(bad)
    bad.write_bytes(b"\x80\x04\x95 pickle bytes")
    with pytest.raises(ModelFormatError, match="not JSON"):
        SvmModel.load(bad)


def test_loading_rejects_inconsistent_shapes() -> None:
    x, y = _data()
    data = SvmModel.from_sklearn(SVC().fit(x, y), feature_names=list("abcd")).to_dict()
    data["feature_names"] = ["a", "b"]
    with pytest.raises(ModelFormatError):
        SvmModel.from_dict(data)


def test_train_command_keeps_progress_off_the_json_report(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from scrapy_denoise.cli import main
    from scrapy_denoise.models import train_pages

    def fake_train(
        data: Path, out: Path, *, seed: int, without: str | None, progress: Callable[[str], None]
    ) -> Any:
        progress("features: flink-blog done (3 pages)")
        return {"out": str(out), "seed": seed, "without": without}

    monkeypatch.setattr(train_pages, "train_pages", fake_train)
    out = tmp_path / "pages.json"
    assert main(["train", "pages", "--data", str(tmp_path), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"out": str(out), "seed": 0, "without": None}
    assert "flink-blog done" in captured.err
    assert main(["train", "pages", "--data", str(tmp_path), "--out", str(out), "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    args = ["train", "pages", "--data", str(tmp_path), "--out", str(out), "--quiet"]
    assert main([*args, "--without", "flink-blog"]) == 0
    assert json.loads(capsys.readouterr().out)["without"] == "flink-blog"
    # the block model's options are refused, not ignored
    for extra in (["--split", "dev-a"], ["--dataset", "wcxb"]):
        with pytest.raises(SystemExit, match="for train blocks"):
            main(["train", "pages", "--data", str(tmp_path), "--out", str(out), *extra])


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("intercept", float("nan"), "NaN or infinite"),
        ("intercept", float("inf"), "NaN or infinite"),
        ("prob_a", float("nan"), "NaN or infinite"),
        ("gamma", -1.0, "negative"),
        ("degree", 400, "degree 400"),
        ("degree", 2.7, "2.7 is not a whole number"),
        ("degree", 1e400, "inf is not a whole number"),  # int() raised OverflowError
        ("gamma", 1e308, "margins overflow"),  # finite, but every margin NaN
    ],
)
def test_loading_rejects_parameters_that_would_score_every_row_alike(
    field: str, value: float, problem: str, tmp_path: Path
) -> None:
    """JSON allows NaN and Infinity: a margin computed from either fails no threshold
    test loudly, so a corrupt file would judge every page the same way in silence."""
    x, y = _data()
    svc = SVC(kernel="poly", degree=3).fit(x, y)
    data = SvmModel.from_sklearn(svc, feature_names=list("abcd")).to_dict()
    path = tmp_path / "model.json"
    path.write_text(json.dumps({**data, field: value}))  # json writes NaN / Infinity
    with pytest.raises(ModelFormatError, match=problem):
        SvmModel.load(path)
    support = [list(row) for row in data["support_vectors"]]
    support[0][0] = float("nan")
    with pytest.raises(ModelFormatError, match="NaN or infinite"):
        SvmModel.from_dict({**data, "support_vectors": support})
    assert SvmModel.from_dict(data).kernel == "poly"  # the untouched file loads


def test_loading_names_the_file_and_refuses_what_is_no_model_file(tmp_path: Path) -> None:
    """Anything wrong raises ModelFormatError with the path (a crawl's error line must say
    which setting to fix): no RecursionError from JSON nested 100,000 deep, no endless
    read of a device, no minute-long load of a huge file."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ModelFormatError, match=f"{deep}: not JSON \\(RecursionError"):
        SvmModel.load(deep)
    with pytest.raises(ModelFormatError, match=f"{tmp_path}: not a file"):
        SvmModel.load(tmp_path)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as f:
        f.truncate(MAX_MODEL_BYTES + 1)  # sparse: no disk used
    with pytest.raises(ModelFormatError, match="bytes, over the"):
        SvmModel.load(huge)
    wrong = tmp_path / "wrong.json"
    x, y = _data()
    data = SvmModel.from_sklearn(SVC().fit(x, y), feature_names=list("abcd")).to_dict()
    wrong.write_text(json.dumps({**data, "kernel": "sigmoid"}))
    with pytest.raises(ModelFormatError, match=f"^{wrong}: unknown kernel 'sigmoid'"):
        SvmModel.load(wrong)
