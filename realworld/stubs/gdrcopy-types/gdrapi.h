// GDRCopy's handle type, which TransformerEngine's userbuffers.h declares a
// member of (gdr_t); this machine has no GDRCopy. Nothing the analysis reads
// calls GDRCopy (docs/realworld.md).
#pragma once
typedef struct gdr *gdr_t;
