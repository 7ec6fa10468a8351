"""inspect-ai: ``.eval`` and ``.json`` logs, read with inspect-ai's own log API (``inspect_ai.log``).

The header (``read_eval_log(header_only=True)``) gives the run: ``eval.eval_id``, ``eval.task``, ``eval.model``, the
generation settings (``eval.model_generate_config``, ``plan.config``), the scorers (``eval.scorers``) and the
packages (``eval.packages['inspect_ai']``). Samples of a .eval are parsed one archive entry at a time
(``EvalSample`` without the transcript: msgspec splits an entry into its fields and the transcript's are never
decoded), so a large log is never held whole. Per sample (x epoch): input (a string,
or chat messages rendered ``role: text`` one per line), target(s), ``output.completion`` (the raw output),
``model_usage`` of the evaluated model (tokens, ``total_cost`` when the provider states it, in USD), ``output.time``
(seconds of the generate call -> latency_ms) and ``scores``: letters C / P / I / N, booleans or numbers; a dict
value gives one score per key (``<scorer>_<key>``). A scorer is model-graded (``judge``) when its name contains
``model_graded`` or its score carries the grader's messages (``metadata.grading``); the judge model is the scorer's
``model`` option, else the ``grader`` model role, else the evaluated model. The score's ``explanation`` is the
reason.

Rejected: a log version other than 1 or 2, a log whose samples were not saved, a sample with an error or without
output (the message names the file, sample id and epoch).
"""
from __future__ import annotations

import json
import struct
import zipfile
import zlib
from pathlib import Path

import msgspec

from evalhouse.importers.core import LogRejected, Reply, RunLog, ToolScore, read_json_log

__all__ = ["read", "KNOWN_VERSIONS"]

KNOWN_VERSIONS = (1, 2)
_SPLIT = msgspec.json.Decoder(dict[str, msgspec.Raw])  # top-level fields, values left as bytes
_VALUE = msgspec.json.Decoder()


class _Raw:
    """The log's own JSON beside inspect-ai's parsed models: the header (format version, fields inspect-ai does not
    know) and, on demand, one sample's JSON (values of unknown sample fields, kept in metadata)."""

    def __init__(self, path: Path):
        self.path = path
        self.zip = None
        self.samples: dict[tuple[str, int], dict] | None = None
        if path.suffix.lower() == ".eval":
            try:
                import zipfile_zstd  # noqa: F401 - teaches zipfile the zstd method inspect-ai writes .eval with
            except ImportError:
                pass
            try:
                self.zip = zipfile.ZipFile(path)
                names = set(self.zip.namelist())
                name = "header.json" if "header.json" in names else "_journal/start.json"
                self.header = json.loads(self.zip.read(name))
                self.first = next((n for n in self.zip.namelist() if n.startswith("samples/")), None)
            except (zipfile.BadZipFile, KeyError, json.JSONDecodeError, EOFError, NotImplementedError) as exc:
                raise LogRejected(f"{path}: not a readable inspect-ai .eval log ({exc}); is the file "
                                  f"truncated?") from None
        else:
            doc = read_json_log(path)
            if not isinstance(doc, dict):
                raise LogRejected(f"{path}: not an inspect-ai log (the top level is not an object)")
            self.samples = {(str(x.get("id")), int(x.get("epoch") or 1)): x for x in doc.pop("samples", None) or []
                            if isinstance(x, dict)}
            self.header = doc

    def first_sample(self) -> dict:
        if self.samples is not None:
            return next(iter(self.samples.values()), {})
        return json.loads(self.zip.read(self.first)) if self.first else {}

    def sample(self, sid: str, epoch: int) -> dict:
        if self.samples is not None:
            return self.samples.get((sid, epoch), {})
        try:
            return json.loads(self.zip.read(f"samples/{sid}_epoch_{epoch}.json"))
        except KeyError:
            return {}


def _unknown(raw: dict, model_cls, prefix: str) -> set[str]:
    fields = set(getattr(model_cls, "model_fields", {}))
    return {f"{prefix}{k}" for k in raw if k not in fields} if fields else set()


def _text(content) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(f"{m.role}: {m.text}" for m in content)


def read(path: Path) -> RunLog:
    """Read one inspect-ai log into a RunLog (raises LogRejected naming the file and sample)."""
    path = Path(path)
    raw = _Raw(path)
    version = raw.header.get("version")
    if version is None and not {"eval", "samples"} & set(raw.header):
        raise LogRejected(f"{path}: not an inspect-ai log (no version, eval or samples field; a log of another tool? "
                          "see --from)")
    if version not in KNOWN_VERSIONS:
        raise LogRejected(f"{path}: unknown inspect-ai log format version {version!r} (this importer reads "
                          f"{', '.join(map(str, KNOWN_VERSIONS))})")
    from inspect_ai.log import EvalLog, EvalSample, EvalSpec, read_eval_log

    try:
        header = read_eval_log(str(path), header_only=True)
    except Exception as exc:  # noqa: BLE001 - any reader error is the file's problem
        raise LogRejected(f"{path}: inspect-ai cannot read the log ({type(exc).__name__}: {exc})") from None
    unknown = _unknown(raw.header, EvalLog, "") | _unknown(raw.header.get("eval") or {}, EvalSpec, "eval.")
    sample_extra = {k for k in raw.first_sample() if k not in EvalSample.model_fields}
    unknown |= {f"sample.{k}" for k in sample_extra}
    spec = header.eval
    model = spec.model
    settings = {k: v for k, v in (spec.model_generate_config.model_dump(exclude_none=True)
                                  if spec.model_generate_config else {}).items()}
    if header.plan and header.plan.config:
        settings.update(header.plan.config.model_dump(exclude_none=True))
    epochs = getattr(spec.config, "epochs", None)
    run_meta = {"generate_config": settings, "model_args": spec.model_args or None, "epochs": epochs,
                "inspect_status": header.status, "task_version": spec.task_version}
    run_meta = {k: v for k, v in run_meta.items() if v not in (None, {}, [])}
    grader = None
    roles = getattr(spec, "model_roles", None) or {}
    if "grader" in roles:
        grader = getattr(roles["grader"], "model", None) or str(roles["grader"])
    scorer_model = {}
    for s in spec.scorers or []:
        opt = (s.options or {}).get("model")
        if isinstance(opt, list):
            opt = opt[0] if opt else None
        if opt:
            scorer_model[s.name] = str(opt)
    tool_version = (spec.packages or {}).get("inspect_ai")

    replies: list[Reply] = []
    try:
        if path.suffix.lower() == ".eval":
            samples = _eval_samples(raw)
        else:
            samples = ((s, raw.sample(str(s.id), int(s.epoch or 1))) for s in read_eval_log(str(path)).samples or [])
        for sample, doc in samples:
            reply = _reply(path, sample, model, spec.task, scorer_model, grader)
            if sample_extra:
                reply.metadata["unknown"] = {k: doc[k] for k in sample_extra if k in doc}
            replies.append(reply)
    except LogRejected:
        raise
    except Exception as exc:  # noqa: BLE001
        raise LogRejected(f"{path}: inspect-ai cannot read the samples ({type(exc).__name__}: {exc}); is the file "
                          f"truncated?") from None
    if not replies:
        raise LogRejected(f"{path}: the log holds no samples (run with samples logged)")
    return RunLog("inspect", tool_version, spec.eval_id, spec.task, replies, settings=run_meta,
                  unknown_fields=unknown, default_label=f"inspect-{spec.eval_id}" if spec.eval_id else None)


_TRANSCRIPT = ("events", "events_data", "messages")  # not imported, and most of a sample's bytes


def _eval_samples(raw: _Raw):
    """(sample, its JSON without the transcript) for each sample of a .eval log, one at a time: each
    ``samples/*.json`` entry (read by ``_Entries``) is split into its top-level fields without decoding their values
    (msgspec's ``Raw``; inspect-ai's own reader likewise skips excluded fields while parsing, with ijson),
    the fields other than the transcript (events, events data, messages) are decoded, and the sample is parsed with
    inspect-ai's own model (``EvalSample``) and its attachments resolved (``resolve_sample_attachments``, when its
    input refers to one). An entry msgspec does not take as it stands (JSON that Python's json module reads more
    leniently, such as a NaN score) is read with json, so every entry gives the values ``json.loads`` gives.
    inspect-ai's ``read_eval_log_samples`` does the same but re-reads the archive per sample (minutes for 5k
    samples) and validates the transcript."""
    from inspect_ai.log import EvalSample, resolve_sample_attachments

    names = [n for n in raw.zip.namelist() if n.startswith("samples/") and n.endswith(".json")]
    for data in _read_entries(raw.zip, names):
        doc = _sample_fields(data)
        sample = EvalSample.model_validate(doc)
        # Without the transcript, inspect-ai resolves attachments in chat-message input only; resolving walks
        # the whole sample, so only when that input refers to an attachment.
        if doc.get("attachments") and not isinstance(doc.get("input"), str) and \
                "attachment://" in json.dumps(doc.get("input")):
            sample = resolve_sample_attachments(sample)
        yield sample, doc


def _read_entries(zf: zipfile.ZipFile, names: list[str]):
    """Each entry's bytes, in order (``_Entries``). (A worker thread reading ahead was tried: it made the reading
    slower, the two threads taking the GIL in turn.)"""
    entries = _Entries(zf)
    try:
        for name in names:
            yield entries.read(name)
    finally:
        entries.close()


class _Entries:
    """Reads archive entries the way ``ZipFile.read`` does, without its per-entry objects (a decompressor per entry
    costs zstd more than the decompression): from the central directory's offset and sizes, the local header's
    signature and name checked, the data decompressed at once (stored, deflate or zstd, inspect-ai's method) and
    its size and CRC-32 checked. Anything else (encryption, another method, any mismatch or error) is left to
    ``zipfile``: the bytes are the same either way, and a damaged entry fails with zipfile's own error."""

    def __init__(self, zf: zipfile.ZipFile):
        self.zf = zf
        self.fh = open(zf.filename, "rb")  # noqa: SIM115 - closed by close()
        self.zstd = None

    def close(self) -> None:
        self.fh.close()

    def read(self, name: str) -> bytes:
        data = self._direct(self.zf.getinfo(name))
        return self.zf.read(name) if data is None else data

    def _direct(self, info: zipfile.ZipInfo) -> bytes | None:
        if info.flag_bits & 0x1 or info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, 93):
            return None
        self.fh.seek(info.header_offset)
        head = self.fh.read(30)
        if len(head) != 30 or head[:4] != b"PK\x03\x04":
            return None
        n_name, n_extra = struct.unpack("<HH", head[26:30])
        name = self.fh.read(n_name + n_extra)[:n_name]
        if name != info.orig_filename.encode("utf-8" if info.flag_bits & 0x800 else "cp437"):
            return None
        raw = self.fh.read(info.compress_size)
        if len(raw) != info.compress_size:
            return None
        try:
            if info.compress_type == zipfile.ZIP_STORED:
                data = raw
            elif info.compress_type == zipfile.ZIP_DEFLATED:
                data = zlib.decompress(raw, -15, max(info.file_size, 1))
            else:
                if self.zstd is None:
                    import zstandard  # zipfile_zstd's (an inspect-ai dependency) codec

                    self.zstd = zstandard.ZstdDecompressor()
                data = self.zstd.decompress(raw, max_output_size=max(info.file_size, 1))
        except Exception:  # noqa: BLE001 - zipfile reads it again and reports its own error
            return None
        if len(data) != info.file_size or zlib.crc32(data) != info.CRC:
            return None
        return data


def _sample_fields(data: bytes) -> dict:
    """One sample entry's top-level fields but the transcript, as ``json.loads`` gives them."""
    try:
        fields = _SPLIT.decode(data)
        return {k: _VALUE.decode(v) for k, v in fields.items() if k not in _TRANSCRIPT}
    except msgspec.MsgspecError:  # not strict JSON (NaN, ...), or not an object: as json reads it (or fails)
        doc = json.loads(data)
        for heavy in _TRANSCRIPT:
            doc.pop(heavy, None)
        return doc


def _reply(path: Path, sample, model: str, task: str, scorer_model: dict, grader: str | None) -> Reply:
    ref = f"sample id={sample.id} epoch={sample.epoch}"
    if sample.error is not None:
        raise LogRejected(f"{path}: {ref}: the sample ended with an error ({str(sample.error.message)[:200]})")
    out = sample.output
    if out is None or not out.choices:
        raise LogRejected(f"{path}: {ref}: the sample has no output")
    usage = (sample.model_usage or {}).get(model) or out.usage
    targets = sample.target if isinstance(sample.target, list) else ([sample.target] if sample.target else [])
    scores: list[ToolScore] = []
    for name, score in (sample.scores or {}).items():
        judge = "model_graded" in name or bool((score.metadata or {}).get("grading"))
        jm = (scorer_model.get(name) or grader or model) if judge else None
        values = score.value.items() if isinstance(score.value, dict) else [(None, score.value)]
        for key, value in values:
            if isinstance(value, list) or value is None or (isinstance(value, float) and value != value):
                continue  # a list value, or a grader that failed (NaN): no rating
            scores.append(ToolScore(name if key is None else f"{name}_{key}", value, "judge" if judge else "program",
                                    reason=score.explanation, judge_model=jm,
                                    metadata={"answer": score.answer} if score.answer is not None else None))
    cost = getattr(usage, "total_cost", None) if usage else None
    return Reply(
        ref=ref, input_text=_text(sample.input), output=out.completion, model=model,
        targets=[str(t) for t in targets], repetition=int(sample.epoch or 1), sample_id=str(sample.id), task_name=task,
        input_tokens=usage.input_tokens if usage else None, output_tokens=usage.output_tokens if usage else None,
        total_tokens=usage.total_tokens if usage else None,
        latency_ms=out.time * 1000 if out.time is not None else None, cost=cost,
        cost_currency="USD" if cost is not None else None,
        metadata={k: v for k, v in {"sample_metadata": sample.metadata or None,
                                    "stop_reason": out.stop_reason,
                                    "working_time_s": sample.working_time, "total_time_s": sample.total_time}.items()
                  if v is not None},
        scores=scores)
