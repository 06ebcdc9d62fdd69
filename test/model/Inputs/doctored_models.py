#!/usr/bin/env python3
"""Runs gen_parity.py's generator on doctored copies of streamsafe-model's
JSON (generator-errors.test) and prints what it says of each: a model it
cannot test must be refused, saying why.

    doctored_models.py GEN_PARITY.py MODEL.json"""
import copy
import importlib.util
import json
import sys

spec = importlib.util.spec_from_file_location("gen_parity", sys.argv[1])
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)
with open(sys.argv[2], encoding="utf-8") as f:
    model = json.load(f)


def reshape(m):
    return next(r for r in m["tensor_methods"] if r["name"] == "reshape")


def unmarked_one_language(m):
    # reshape loses its Python spelling without saying why.
    reshape(m)["python"] = None


def marked_both(m):
    reshape(m)["one_language"] = "a reason for a row spelled in both"


def effect_without_scenario(m):
    reshape(m)["effect"] = "TensorReset"


def name_without_arguments(m):
    m["tensor_methods"].append(dict(reshape(m), name="frobnicate",
                                    cpp="at::Tensor::frobnicate",
                                    python="frobnicate"))


def api_without_scenario(m):
    m["apis"].append({"cpp": "c10::cuda::frobnicate",
                      "python": "torch.cuda.frobnicate",
                      "effect": "SetDevice", "one_language": None})


for doctor in (unmarked_one_language, marked_both, effect_without_scenario,
               name_without_arguments, api_without_scenario):
    m = copy.deepcopy(model)
    doctor(m)
    try:
        gen.generate(m)
        print("%s: accepted" % doctor.__name__)
    except gen.Failure as e:
        print("%s: error: %s" % (doctor.__name__, e))
# And the model as it is: accepted.
gen.generate(model)
print("the model: accepted")
