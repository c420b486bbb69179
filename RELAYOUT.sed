# issue 21's relayout of lab/grading (old module -> new), for files written before it.
# Apply with: sed -i -f RELAYOUT.sed FILE...   (Python sources, docs; then read the diff)
# absolute module paths
s/lab\.grading\.job\b/lab.grading.inside.protocol/g
s/lab\.grading\.inside\.wire\b/lab.grading.inside.protocol/g
s/lab\.grading\.inside\.plain\b/lab.grading.inside.protocol/g
s/lab\.grading\.plugin\b/lab.grading.worker.plugin/g
s/lab\.grading\.student\b/lab.grading.worker.student/g
s/lab\.grading\.sandbox import Limits\b/lab.grading.inside.protocol import Limits/g
s/lab\.grading\.sandbox\b/lab.grading.worker.sandbox/g
s/lab\.grading\.checks\b/lab.grading.worker.checks/g
s/-m lab\.grading\.supervise\b/-m lab.grading.worker.main/g
# relative imports, in a module at the top of lab/grading (a host module)
s/^\(\s*\)from \.job import Job$/\1from .inside.protocol import Job/
s/^\(\s*\)from \.sandbox import Limits$/\1from .inside.protocol import Limits/
s/^\(\s*\)from \.\(plugin\|student\|sandbox\|checks\) import/\1from .worker.\2 import/
s/^\(\s*\)from \.inside import wire$/\1from .inside import protocol/
s/^\(\s*\)from \.inside\.plain import/\1from .inside.protocol import/
# names that moved between modules (read the diff: these need the import beside them)
s/isolation\.Bundle\b/bundle.Bundle/g
s/isolation\.STUDENT_MODULES\b/bundle.STUDENT_MODULES/g
s/\bwire\.\(encode\|decode\|write_frame\|read_frame\|write_bytes\|FrameBuffer\|Garbled\|LARGEST\|HEADER\)\b/protocol.\1/g
