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

# With one distribution phase (NB_ONE_PHASE, nb_common.s), a request asks
# for q's bins of all 16 histograms, and the answer is one data message:
# for each class, sum section, marker, difference section, marker (class
# c's four at c (2 blen + 2) words of q's slot), whatever
# SCMP_SECTIONS_IN_ONE_MESSAGE says: nb_am_send_phase.
    .if NB_ONE_PHASE
    .text
# nb_am_send_phase(a0 = node q, a1 = q's slot, a2 = marker, a3 = q's first
# bin in bytes, a4 = q's bin count): one data message of q's sections of
# every class's histograms (read through nb_hist: the main thread may
# select another class meanwhile) and their markers.
nb_am_send_phase:
    li t0, 1
    sendh a0, data, a1, t0
    li t1, 1 << 16                  # source stride 1
    or t1, t1, a4
    lw t2, nb_hist                  # class 0's sum histogram
    add t2, t2, a3
    li t3, NB_CLASSES
1:  sendm t2, t1                    # the class's sum section
    send a2
    li t0, 4 * NB_BINS
    add t4, t2, t0
    sendm t4, t1                    # its difference section
    addi t3, t3, -1
    beqz t3, 2f
    send a2
    li t0, 4 * NB_HIST_WORDS
    add t2, t2, t0                  # the next class
    j 1b
2:  sende a2
    ret
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
