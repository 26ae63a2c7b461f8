// SPDX-License-Identifier: GPL-2.0-only
/* The ELF symbol table: read once per input (functions and variables). */
