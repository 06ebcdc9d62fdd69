//===--- ModelJson.h - The API model as data --------------------*- C++ -*-===//
//
// The whole model as JSON (tools/model, streamsafe-model): what the parity
// test generates its program pairs from and what the docs' meta test holds
// docs/api-model.md and docs/python.md against.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_MODELJSON_H
#define STREAMSAFE_LIB_MODEL_MODELJSON_H

#include "llvm/Support/JSON.h"

namespace streamsafe {

/// {"apis": [...], "classes": [...], "tensor_methods": [...],
///  "torch_functions": [...], "bounds": {...}}; every row has its effect,
/// its spelling in each language (null: none) and, for a row spelled in
/// one language only, why ("one_language").
llvm::json::Value modelAsJson();

} // namespace streamsafe

#endif // STREAMSAFE_LIB_MODEL_MODELJSON_H
