#!/bin/bash
# The one Python test run 2 failed, after its fix (it asked for the no-GPU error on a GPU
# machine), and the other argument-rule tests of test_api.py. Tool `device`, kind nvidia-h200,
# carry [".gpu"].
mkdir -p $OUT/run3
PY=/opt/torch/.venv/bin/python
P=$(mktemp -d); $PY -m zipfile -e .gpu/wheel/*.whl $P
PYTHONPATH=$P timeout 200 $PY -m pytest -q -p no:cacheprovider -rs python/tests/test_api.py > $OUT/run3/py-tests-api.txt 2>&1
echo "pytest rc=$?" | tee $OUT/run3/rc.txt; tail -5 $OUT/run3/py-tests-api.txt
cd $OUT && tar czf run3.tgz run3
