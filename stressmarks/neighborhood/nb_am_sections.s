# nb_am_sections.s: how the active-messages Neighborhood (nb_am.s,
# nb_am_lit.s) answers node q's request for its bins: our counts of q's
# bins of the sum histogram and of the difference histogram (thesis 6.2.1:
# "each node takes responsibility for only a section of each of the
# combined histograms"; "nodes request rows and histogram portions from
# other nodes by creating threads on those nodes"), each followed by a
# marker word, into q's slot (sum, marker, difference, marker). Chosen when
# the program is assembled, as in nb_sr.s (a profile's [profile.programs],
# or --defsym), so that both designs send the sections alike:
# - SCMP_SECTIONS_IN_ONE_MESSAGE = 0 (the default): two data messages, one
#   per section, each a sendh, the section's sendm parts and the marker;
# - 1: one data message, sendh, sendm of the sum section, send of its
#   marker, sendm of the difference section, sende of its marker (3.3: "the
#   message body may be filled using any combination of send, send2, and
#   sendm instructions"). The slot's layout is the same, so the requester
#   reads it alike. A section is at most 2^15 words (2^16 bins over at
#   least 2 nodes), within one sendm's count.
    .ifndef SCMP_SECTIONS_IN_ONE_MESSAGE
    .equ SCMP_SECTIONS_IN_ONE_MESSAGE, 0
    .endif

# Only the one-message form is here (empty at 0, so the default programs
# assemble as before); the two-message form is each program's own serve.
    .if SCMP_SECTIONS_IN_ONE_MESSAGE
    .text
# nb_am_send_sections(a0 = node q, a1 = q's slot, a2 = marker, a3 = q's
# first bin in bytes, a4 = q's bin count): one data message of both
# sections and their markers.
nb_am_send_sections:
    li t0, 1
    sendh a0, data, a1, t0
    li t1, 1 << 16                  # source stride 1
    or t1, t1, a4
    lw t0, nb_sum
    add t0, t0, a3
    sendm t0, t1
    send a2
    lw t0, nb_diff
    add t0, t0, a3
    sendm t0, t1
    sende a2
    ret
    .endif
