"""The floor lab_check's isolation is measured against: a lesson's graded tests run by pytest in
one process, on a harness imported into that very process, with no sandbox and no grader.

    PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 python -m pytest LESSON/tests.py -p bench.inprocess \
        -p hypothesis.extra.pytestplugin --harness FILE

It gives the tests the same `student` and `variation` fixtures lab_check's plugin does, answered
directly: a call's facts are worked out as the sandbox's server works them out (it is the same
code), on a deep copy of what the test sends, and go through JSON, as over the channel. Only for a
benchmark: nothing here isolates anything.
"""

import copy
import importlib.util
import json
import pathlib
import random

import pytest

from lab.worker.plugin import hypothesis_profile, scenarios_of
from lab.sandbox.serve import Server
from lab.worker.harness_proxy import Returned, Student, Value


def pytest_addoption(parser):
    parser.addoption("--harness", help="the harness file to import into this process")


def pytest_configure(config):
    hypothesis_profile()  # lab_check's: the same examples, no database, no deadline


@pytest.fixture(scope="session")
def _module(request):
    path = request.config.option.harness
    spec = importlib.util.spec_from_file_location("harness", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def variation(request):
    return random.Random(f"0:{request.node.name}")


@pytest.fixture
def student(request, _module):
    folder = pathlib.Path(request.node.path).parent
    scenarios = folder / "scenarios.py"
    return InProcess(_module, scenarios_of(scenarios))


def _plain(facts):
    """The facts as the grader receives them: through JSON."""
    return json.loads(json.dumps(facts))


class InProcess(Student):
    """The `student` fixture's questions, answered in this process."""

    def __init__(self, module, scenarios):
        super().__init__(None, scenarios=scenarios)
        self._module = module
        self._server = Server(None, None, module.__file__)
        self._server.codec.keep(module)

    def call(self, name, record):
        facts = _plain(self._server._facts(getattr(self._module, name), name,
                                           copy.deepcopy(record)))
        return Returned(given=record, messages=facts["returned"], origins=facts["origins"],
                        returned_input=facts["returned_input"],
                        input_after=facts["input_after"],
                        input_kept_objects=facts["input_kept_objects"])

    def value(self, name, *args):
        facts = _plain(self._server._value(getattr(self._module, name), name,
                                           copy.deepcopy(list(args))))
        return Value(args=args, value=facts["value"], args_after=facts["args_after"],
                     returned_input=facts["returned_input"])

    def constant(self, name):
        return copy.deepcopy(getattr(self._module, name))

    def scenario(self, name, **params):
        return getattr(self._scenarios, name)(self._module, **params)

    def close(self):
        pass
