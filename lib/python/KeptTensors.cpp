//===--- KeptTensors.cpp - Tensors an object keeps for its current stream -===//
//
// A method that stores a tensor in its object (`self.buf = t`) hands it to
// the object's other methods and users, which use it on their current
// stream; if it was allocated on a side stream, its memory goes back to
// that stream's pool when it dies, and the pool may give it to new work on
// that stream while the current stream still uses it, unless it was
// recorded on the current stream. The rule is lib/lower/KeptTensors.h;
// this file reads a Python class's evidence for it: whether its family
// calls record_stream, reads the attribute outside any `with` statement
// (where no other stream may be current), returns it from a method.
//
//===----------------------------------------------------------------------===//

#include "lib/python/HelperIndex.h"

namespace streamsafe::py {

namespace {

/// Whether \p N is the target of an assignment (`self.x = v`, `self.x +=
/// v` reads it too, and counts as a read).
bool assignedTo(TSNode N) {
  TSNode P = ts_node_parent(N);
  while (is(P, "pattern_list") || is(P, "tuple_pattern") ||
         is(P, "parenthesized_expression"))
    P = ts_node_parent(P);
  if (!is(P, "assignment"))
    return false;
  TSNode Left = field(P, "left");
  return ts_node_start_byte(N) >= ts_node_start_byte(Left) &&
         ts_node_end_byte(N) <= ts_node_end_byte(Left);
}

} // namespace

void HelperIndex::keptEvidence(TSNode Class, llvm::StringRef Name,
                               lower::KeptEvidence &E) {
  auto [It, New] = Kept.try_emplace(Class.id);
  KeptScan &Scan = It->second;
  if (New)
    for (TSNode C : family(Class))
      for (TSNode M : methodsWithSelf(C, F)) {
        std::string Self = paramNames(M, F)[0];
        // The attribute a name of the method is bound to (`x = self.a`).
        llvm::StringMap<std::string> Aliases;
        auto AttributeOf = [&](TSNode E) -> std::string {
          E = unparen(E);
          if (is(E, "attribute") && F.text(unparen(field(E, "object"))) == Self)
            return F.text(field(E, "attribute")).str();
          if (is(E, "identifier"))
            return Aliases.lookup(F.text(E));
          return "";
        };
        ownCode(field(M, "body"), [&](TSNode N) {
          if (is(N, "assignment") && is(field(N, "left"), "identifier") &&
              !ts_node_is_null(field(N, "right")))
            if (std::string A = AttributeOf(field(N, "right")); !A.empty())
              Aliases[F.text(field(N, "left"))] = A;
        });
        ownCode(field(M, "body"), [&](TSNode N) {
          if (!is(N, "return_statement"))
            return;
          for (TSNode V : children(N)) {
            V = unparen(V);
            std::vector<TSNode> Items =
                is(V, "expression_list") || is(V, "tuple")
                    ? children(V)
                    : std::vector<TSNode>{V};
            for (TSNode E : Items)
              if (std::string A = AttributeOf(E); !A.empty())
                Scan.Returned.insert(A);
          }
        });
        everyNode(field(M, "body"), [&](TSNode N) {
          if (is(N, "call")) {
            TSNode Fn = unparen(field(N, "function"));
            Scan.Records |= is(Fn, "attribute") &&
                            F.text(field(Fn, "attribute")) == "record_stream";
            return;
          }
          if (is(N, "attribute") &&
              F.text(unparen(field(N, "object"))) == Self && !assignedTo(N) &&
              !insideWith(N, M))
            Scan.ReadPlainly.insert(F.text(field(N, "attribute")));
        });
      }
  E.ClassRecords = Scan.Records;
  E.UsedOutsideSections = Scan.ReadPlainly.contains(Name);
  E.ReturnedByAMethod = Scan.Returned.contains(Name);
}

} // namespace streamsafe::py
