#include <utility>

struct Buffer { int *data; };
void consume(Buffer);

void twice(Buffer b) {
  Buffer moved = std::move(b);
  consume(b);
  consume(moved);
}
