/* ---- pragma2cuda C-to-C++ spellings (templates/p2c_cxx_compat.cuh) -------
 * C keywords that C++ spells differently, so the user's text can stay as it is.
 */
#ifndef restrict
#define restrict __restrict__
#endif
#ifndef _Bool
#define _Bool bool
#endif
/* ---- end of C-to-C++ spellings ---- */
