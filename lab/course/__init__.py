"""Course authoring and the student's place in it, on the course's machine.

The order of the labs (`order`, from lessons/course.toml), where a lab's files are
(`lesson_files`), a lab's harness composed from its parent's and its changes (`compose`, run
backwards by `decompose`), its starter made from its finished file (`starter`), the
nearly-right harnesses of the checkpoints (`patches`); and the student's side of the order:
their harness file (`harness_file`), where it stands (`student_position`), what they did
(`progress`), what comes next (`next_step`) and how their own code is carried into it
(`carry_forward`).
"""
