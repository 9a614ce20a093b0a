"""The example notebook runs from top to bottom in a fresh kernel of this venv and shows what its
text promises: the win-rate table, the games, a figure, the comparison, the report folder. A
notebook committed with outputs would grow the diffs: it must be clean. nbclient, nbformat and
ipykernel are in the test extra: a missing one fails here rather than skipping the example."""

from __future__ import annotations

import sys
from pathlib import Path

import nbclient
import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "first-steps.ipynb"
CELL_TIMEOUT = 600  # seconds; a cold numba cache compiles the engine in the first cell that plays


def kernel_manager() -> KernelManager:
    """The kernel this venv's ipykernel describes (its argv starts with sys.executable), not a
    'python3' kernelspec some other Jupyter install registered in the user's or system's folders."""
    specs = KernelSpecManager(kernel_dirs=[])  # nothing but the native kernel of this interpreter
    return KernelManager(kernel_name="python3", kernel_spec_manager=specs)


def run(nb, workdir: Path):
    client = nbclient.NotebookClient(nb, km=kernel_manager(), timeout=CELL_TIMEOUT,
                                     resources={"metadata": {"path": str(workdir)}})
    return client.execute()


def outputs(nb) -> list[dict]:
    return [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs]


def text_of(out) -> str:
    return out.get("text", "") + out.get("data", {}).get("text/plain", "") + out.get("data", {}).get("text/html", "")


def test_the_notebook_is_committed_clean():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code and all(not cell.outputs and cell.execution_count is None for cell in code)


@pytest.mark.exhaustive  # starts a Jupyter kernel and runs every cell
def test_the_example_notebook_runs_and_shows_the_results(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # first, a cell of the test's own: which interpreter the kernel runs (removed from the checks below)
    nb.cells.insert(0, nbformat.v4.new_code_cell("import sys; print(sys.executable)"))
    run(nb, tmp_path)
    probe = nb.cells.pop(0)
    assert Path(probe.outputs[0]["text"].strip()) == Path(sys.executable), "the kernel runs another python"

    everything = outputs(nb)
    assert not [out for out in everything if out.output_type == "error"]
    # the result's own HTML table of win rates, one row per player
    html = [out.data["text/html"] for out in everything if "text/html" in out.get("data", {})]
    assert any(page.startswith("<table><caption>find-dr-evil: 20,000 games, seed 7</caption>")
               and "<td>player 4</td>" in page for page in html), "no win-rate table"
    assert any("strategy_name_0" in page for page in html), "no DataFrame of the games"
    assert any("no-repeat-pick" in text_of(out) for out in everything), "no variant listed"
    assert any("significant" in page and "balance" in page for page in html), "no comparison table"
    assert any("image/png" in out.get("data", {}) for out in everything), "no figure"
    assert any("report.html" in text_of(out) for out in everything), "no report folder"
    # the report went to a temporary folder, nothing into the working directory
    assert not (tmp_path / "reports").exists()


def test_an_error_in_a_cell_fails_the_run(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import simbalance"),
        nbformat.v4.new_code_cell('simbalance.simulate("find-dr-evill", 10)'),  # a typo in the game
        nbformat.v4.new_code_cell("print('never reached')"),
    ])
    with pytest.raises(nbclient.exceptions.CellExecutionError, match=r"did you mean find-dr-evil\?"):
        run(nb, tmp_path)
    error = nb.cells[1].outputs[-1]
    assert error.output_type == "error" and error.ename == "SimbalanceError" and not nb.cells[2].outputs
