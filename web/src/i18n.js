// Every UI string, in zh-CN and en. Lesson text arrives from the engine as
// L10n objects ({"zh-CN": ..., "en": ...}) and is picked with `l()`.

import { SANDBOX_STRINGS } from './sandbox/strings.js';

export const LANGS = ['zh-CN', 'en'];
const LANG_KEY = 'idemlab.lang';

const STRINGS = {
  'zh-CN': {
    'app.title': 'idemlab',
    'app.tagline': '超时不等于失败',
    'app.loading': '正在加载……',
    'app.loadingEngine': '正在加载模拟引擎……',
    'lang.switch': 'English',
    'lang.switchLabel': '切换到英文界面',
    'nav.lessons': '课程列表',
    'nav.back': '← 返回课程列表',

    'list.heading': '课程',
    'list.intro': '每一课都是一次确定的模拟：客户端、网络和服务端一步步推进，你在关键时刻判断每一方知道什么。',
    'list.open': '开始',
    'list.continue': '继续',
    'list.review': '回顾',
    'list.answered': '已作答 {n}/{total}',
    'list.correct': '答对 {n}',
    'list.completed': '已完成',
    'list.noQuestions': '本课没有题目',
    'list.empty': '没有找到课程。',
    'level.intro': '入门',
    'level.advanced': '进阶',

    'err.lessonTitle': '这一课无法加载',
    'err.file': '文件',
    'err.path': 'JSON 路径',
    'err.reason': '原因',
    'err.fetch': '无法获取文件：{reason}',
    'err.http': 'HTTP {status}',
    'err.notJson': '不是合法的 JSON：{reason}',
    'err.indexTitle': '无法加载课程目录',
    'err.indexReason': '课程目录 {file} 读不出来（原因，英文）：',
    'err.engineTitle': '模拟引擎没有加载成功',
    'err.engineHint': '页面需要 engine/idemlab.js 和 engine/idemlab.wasm 与 index.html 放在同一个文件夹里，并通过 HTTP 打开。',
    'err.engineCall': '引擎调用 {method} 失败：{reason}',
    'err.unknownLesson': '没有 id 为“{id}”的课程。下面是全部课程。',
    'err.unexpected': '出了点问题，页面没能完成这一步。',
    'err.unexpectedHint': '刷新页面通常能恢复；你的进度保存在本浏览器中。',
    'err.reload': '刷新页面',
    'err.rootPath': '（整个文件）',
    'err.duplicateId': '课程 id“{id}”重复：{other} 已经使用了它，所以 {file} 不会显示。请给其中一个文件换一个 id。',
    'err.engineReason': '课程文件有问题：{file}，位置 {path}（原因，英文）：',
    'err.unknownRoute': '地址 {route} 不是本页的链接，下面是课程列表。',

    'notice.corrupt': '保存的进度无法读取，已另存到 {key}，没有删除。现在从空白进度开始。',
    'notice.storageUnavailable': '这个浏览器不允许保存进度（本地存储不可用），关闭页面后进度会丢失。',
    'notice.deepLinkGated': '链接指向第 {target} 步，但第 {step} 步有一道题还没作答。先回答它，再继续往后看。',
    'notice.corruptLessons': '部分课程（{lessons}）保存的进度无法读取，已连同全部进度另存到 {key}，没有删除。这些课程从头开始，其他课程的进度保留。',
    'notice.dismiss': '关闭提示',
    'notice.reasonOpen': '（原因，英文：',
    'notice.reasonClose': '）',
    'notice.noCompare': '这一课没有并排对比视图，下面是这一课本身。',
    'notice.imported': '已导入进度。',
    'notice.importFailed': '无法导入这个文件（原因，英文）：{reason}',

    'progress.export': '导出进度',
    'progress.import': '导入进度',
    'progress.tools': '进度',
    'progress.note': '进度只保存在这个浏览器里。',

    'lesson.level': '级别',
    'lesson.stepOf': '第 {i} 步 / 共 {last} 步',
    'lesson.time': 't={t}ms',
    'lesson.controls': '时间线控制',
    'lesson.first': '回到开头',
    'lesson.prev': '上一步',
    'lesson.next': '下一步',
    'lesson.last': '跳到最后',
    'lesson.play': '播放',
    'lesson.pause': '暂停',
    'lesson.scrubber': '时间线位置',
    'lesson.keys': '键盘：← → 逐步，Home / End 跳到开头 / 结尾',
    'lesson.blocked': '先回答本步的题目，时间线才会继续。',
    'lesson.completed': '本课已完成：题目全部答对，并走到了最后一步。',
    'lesson.firstTry': '第一次就答对：{k}/{n} 题',
    'lesson.narration': '此刻',
    'lesson.beforeMoments': '开始',
    'lesson.momentNow': '当前时刻',

    'side.client': '客户端',
    'side.service': '服务端',
    'side.network': '网络',
    'side.provider': '邮件服务商',
    'side.none': '—',
    'side.observer': '真相（观察者）',

    'diagram.title': '时空图',
    'diagram.desc': '三条泳道：客户端、网络、服务端；时间向下流动。只显示到当前步为止发生的事。',
    'diagram.commit': '提交',
    'diagram.crash': '崩溃',
    'diagram.restart': '重启',
    'diagram.timeout': '超时',
    'diagram.lost': '丢失',
    'diagram.reject': '拒绝',
    'diagram.replay': '重放回执',
    'diagram.register': '登记标识',
    'diagram.inProgress': '处理中',
    'diagram.expire': '过期',
    'diagram.notify': '直接发信',
    'diagram.relay': '转发',
    'diagram.markSent': '标为已发',
    'diagram.acceptEmail': '收进收件箱',
    'diagram.dedupEmail': '重复，不投递',
    'diagram.descMail': '四条泳道：客户端、网络、服务端、邮件服务商；时间向下流动。只显示到当前步为止发生的事。',
    'diagram.inFlight': '传输中',
    'msg.request': '请求',
    'msg.response': '响应',
    'msg.lookup': '查询',
    'msg.lookup_reply': '查询结果',
    'msg.email': '邮件',
    'msg.email_ack': '邮件确认',
    'msg.send': '第 {n} 次发信',
    'msg.attempt': '第 {n} 次',

    'panel.alive': '运行中',
    'panel.crashed': '已崩溃',
    'panel.status': '状态',
    'panel.intents': '意图表 intents（本地数据库，持久）',
    'panel.keys': '去重记录表 idempotency_keys（服务端数据库，持久）',
    'panel.deliveries': '业务效果表 deliveries（每行一条业务效果，持久）',
    'panel.inProgress': '正在处理操作标识 {op_key}，将在 t={until}ms 提交',
    'panel.noInProgress': '没有正在处理的请求',
    'panel.outbox': '发件箱表 outbox（欠下的通知邮件，与业务效果同一事务写入，持久）',
    'panel.relayWaiting': '转发器等邮件 {email_key}（第 {send} 次发信）的确认，截止 t={deadline}ms',
    'panel.emails': '收件箱（邮件服务商收下的通知邮件）',
    'panel.volatile': '内存（崩溃即丢失）',
    'panel.waiting': '等待 {intent} 第 {attempt} 次尝试的{what}，截止 t={deadline}ms',
    'panel.noWaiting': '没有在等待的回复',
    'panel.noRows': '（空）',
    'panel.changed': '本步有变化',
    'panel.inFlight': '传输中',
    'panel.delivered': '已送达',
    'panel.dropped': '已丢失',
    'panel.none': '无',
    'col.id': '编号',
    'col.intent': '意图',
    'col.op_key': '操作标识',
    'col.fingerprint': '内容哈希',
    'col.status': '状态',
    'col.receipt': '回执',
    'col.attempts': '尝试次数',
    'col.created_at': '写入时间',
    'col.email_key': '邮件标识',
    'col.received_at': '收到时间',
    'value.null': '无',

    'grid.title': '每一方知道什么',
    'grid.fact': '事实',
    'grid.knowsTrue': '知道：是',
    'grid.knowsFalse': '知道：否',
    'grid.knowsN': '知道：{n}',
    'grid.cannotKnow': '无法知道',
    'grid.hidden': '答题后显示',
    'grid.hiddenLabel': '这一格会泄露答案，答题后显示',
    'grid.witness': '见证：{text}',
    'grid.witnessRun': '运行 {world}（{world_text}），第 {step} 步',
    'grid.witnessThisRun': '就是这次运行，第 {step} 步',
    'worlds.summary': '故障空间：引擎比较的 {n} 次运行',
    'worlds.note': '“知道”的意思是：在这一方分不清的所有运行里，这个事实都成立。',
    'grid.witnessHint': '把鼠标移到或用 Tab 聚焦“无法知道”的格子，可以看到让它无法确定的那次运行。',
    'grid.truthValue': '{v}',
    'truth.toggle': '显示真相（观察者视角）',
    'truth.hiddenNote': '真相已隐藏：先只根据双方各自看到的东西推理。',
    'truth.gated': '有题目还没作答，真相暂时隐藏，免得泄露答案。',
    'truth.title': '真相',
    'truth.effects': '业务效果总数：{n}',
    'truth.byKey': '{key} × {n}',
    'truth.emails': '收件箱里的通知邮件：{n}',
    // One line per invariant (engine/invariants/): held, or broken (then the engine's reason).
    'inv.duplicate_effect.ok': '没有重复的业务效果',
    'inv.duplicate_effect.broken': '重复的业务效果',
    'inv.false_success.ok': '没有虚假成功：客户端记下的成功都有这份内容的业务效果',
    'inv.false_success.broken': '虚假成功',
    'inv.false_failure.ok': '没有虚假失败',
    'inv.false_failure.broken': '虚假失败',
    'inv.forgotten_intent.ok': '没有被遗忘的意图',
    'inv.forgotten_intent.broken': '被遗忘的意图',
    'inv.lost_notification.ok': '没有丢失的通知邮件',
    'inv.lost_notification.broken': '丢失的通知邮件',
    'inv.duplicate_notification.ok': '没有重复的邮件',
    'inv.duplicate_notification.broken': '同一次交付收到了重复的邮件',
    'bool.true': '是',
    'bool.false': '否',

    'q.kind.knowledge': '知识判断',
    'q.kind.predict': '预测',
    'q.kind.choose': '选下一步',
    'q.choose.heading': '每个选项，在客户端此刻分不清的每一次运行里的结局：',
    'q.choose.safe': '安全',
    'q.choose.unsafe': '不安全',
    'q.choose.runs': '逐次运行（{n} 次）',
    'q.choose.run': '{run}：{effects} 条业务效果，客户端状态 {status}',
    'q.choose.problem.duplicate_effect': '业务效果重复了',
    'q.choose.problem.false_success': '虚假成功：客户端以为做成了，这份内容其实没有业务效果',
    'q.choose.problem.false_failure': '虚假失败：客户端以为没做成，其实已经做了',
    'q.choose.problem.forgotten_intent': '被遗忘的意图：业务效果已存在，客户端却不知道',
    'q.choose.problem.lost_notification': '通知邮件丢了',
    'q.choose.problem.duplicate_notification': '通知邮件重复了',
    'q.kind.table': '时刻表',
    'q.kind.concept': '概念',
    'q.heading': '题目',
    'q.side': '一方：{side}',
    'q.fact': '事实：{fact}',
    'q.ans.knows_true': '知道：是',
    'q.ans.knows_false': '知道：否',
    'q.ans.cannot_know': '无法知道',
    'q.ans.choose': '请选择',
    'q.check': '检查答案',
    'q.fillAll': '每一格都选好后才能检查。',
    'q.checking': '正在让引擎检查……',
    'q.right': '答对了',
    'q.wrong': '不对',
    'q.try': '第 {n} 次作答',
    'q.yours': '你的答案：{a}',
    'q.expected': '正确答案：{a}',
    'q.why': '为什么：',
    'q.retry': '可以再试一次。',
    'q.rightFirstTry': '第一次就答对了。',
    'q.rightAtTry': '第 {n} 次才答对（之前答错过）。',
    'q.cellRight': '对',
    'q.cellWrong': '不对，应为：{a}',
    'q.tableCell': '{moment} · {side} · {fact}',
    'q.cellsRight': '{n}/{total} 格正确',
    'q.unanswered': '本步有题目：回答之后才能继续往后看。',
    'q.unansweredLast': '回答这道题，完成本课。',

    'timeline.title': '文字时间线',
    'timeline.line': 't={t}ms · {side} · {text}',
    'timeline.hiddenRest': '后面还有 {n} 步，走到那里才显示。',

    'tabs.label': '本课的视图',
    'tabs.lesson': '逐步讲解',
    'tabs.compare': '并排对比',
    'compare.open': '并排对比',
    'compare.title': '并排对比',
    'compare.caption': '同一个故障计划（{faults}）分别交给两种策略，两边按虚拟时间一起推进。每个计数是服务端为“{intent}”保存的业务效果条数，由引擎算出。',
    'compare.spoiler': '这个视图会显示两次运行的结局。本课还有 {n} 道题没有作答：想先预测再看结果，就先回去答题。',
    'compare.controls': '并排对比的控制',
    'compare.first': '回到开头',
    'compare.prev': '上一个时刻',
    'compare.next': '下一个时刻',
    'compare.last': '跳到最后',
    'compare.scrubber': '虚拟时间',
    'compare.keys': '键盘：← → 两边一起前进或后退，Home / End 跳到开头 / 结尾',
    'compare.timeOf': 't={t}ms · 第 {i} 个时刻，共 {n} 个',
    'compare.events': '{name} 的事件',
    'compare.effects': '条“{intent}”的业务效果',
    'compare.status': '客户端状态：',
    'compare.noStatus': '尚未决定',
    'compare.sideSummary': '{name}：{n} 条业务效果，客户端 {status}。',

    'self.title': '自我检查',
    'self.note': '不评分，只给你自己核对。勾选会保存。',

    'announce.step': '第 {i} 步：{line}',
  },
  en: {
    'app.title': 'idemlab',
    'app.tagline': 'A timeout is not a failure',
    'app.loading': 'Loading…',
    'app.loadingEngine': 'Loading the simulation engine…',
    'lang.switch': '中文',
    'lang.switchLabel': 'Switch the interface to Chinese',
    'nav.lessons': 'Lessons',
    'nav.back': '← Back to lessons',

    'list.heading': 'Lessons',
    'list.intro': 'Each lesson is one deterministic simulation: client, network and service advance step by step, and at the key moments you decide what each side knows.',
    'list.open': 'Start',
    'list.continue': 'Continue',
    'list.review': 'Review',
    'list.answered': 'answered {n}/{total}',
    'list.correct': '{n} correct',
    'list.completed': 'completed',
    'list.noQuestions': 'no questions in this lesson',
    'list.empty': 'No lessons found.',
    'level.intro': 'intro',
    'level.advanced': 'advanced',

    'err.lessonTitle': 'This lesson could not be loaded',
    'err.file': 'File',
    'err.path': 'JSON path',
    'err.reason': 'Reason',
    'err.fetch': 'could not fetch the file: {reason}',
    'err.http': 'HTTP {status}',
    'err.notJson': 'not valid JSON: {reason}',
    'err.indexTitle': 'The lesson index could not be loaded',
    'err.indexReason': 'The lesson index {file} could not be read: ',
    'err.engineTitle': 'The simulation engine did not load',
    'err.engineHint': 'The page needs engine/idemlab.js and engine/idemlab.wasm in the same folder as index.html, opened over HTTP.',
    'err.engineCall': 'engine call {method} failed: {reason}',
    'err.unknownLesson': 'There is no lesson with id “{id}”. Here are all lessons.',
    'err.unexpected': 'Something went wrong and the page could not finish this step.',
    'err.unexpectedHint': 'Reloading usually recovers; your progress is kept in this browser.',
    'err.reload': 'Reload the page',
    'err.rootPath': '(the whole file)',
    'err.duplicateId': 'Duplicate lesson id “{id}”: {other} already uses it, so {file} is not shown. Give one of the two files another id.',
    'err.engineReason': 'The lesson file {file} has a problem at {path}: ',
    'err.unknownRoute': 'The address {route} is not a link of this page; here is the lesson list.',

    'notice.corrupt': 'Your saved progress could not be read. It was set aside under {key}, not deleted. Starting with empty progress.',
    'notice.storageUnavailable': 'This browser does not allow saving progress (local storage is unavailable); progress will be lost when the page closes.',
    'notice.deepLinkGated': 'The link points to step {target}, but a question at step {step} is not answered yet. Answer it first, then go on.',
    'notice.corruptLessons': 'The saved progress of some lessons ({lessons}) could not be read. All saved progress was set aside under {key}, not deleted. Those lessons start again; the others keep their progress.',
    'notice.dismiss': 'Dismiss notice',
    'notice.reasonOpen': ' (',
    'notice.reasonClose': ')',
    'notice.noCompare': 'This lesson has no side-by-side view; here is the lesson itself.',
    'notice.imported': 'Progress imported.',
    'notice.importFailed': 'Could not import: {reason}',

    'progress.export': 'Export progress',
    'progress.import': 'Import progress',
    'progress.tools': 'Progress',
    'progress.note': 'Progress is kept in this browser only.',

    'lesson.level': 'Level',
    'lesson.stepOf': 'Step {i} of {last}',
    'lesson.time': 't={t}ms',
    'lesson.controls': 'Timeline controls',
    'lesson.first': 'Go to the start',
    'lesson.prev': 'Previous step',
    'lesson.next': 'Next step',
    'lesson.last': 'Go to the end',
    'lesson.play': 'Play',
    'lesson.pause': 'Pause',
    'lesson.scrubber': 'Timeline position',
    'lesson.keys': 'Keys: ← → step, Home / End jump to start / end',
    'lesson.blocked': 'Answer the question at this step to continue the timeline.',
    'lesson.completed': 'Lesson completed: every question answered correctly and the last step reached.',
    'lesson.firstTry': 'right at the first try: {k} of {n}',
    'lesson.narration': 'This moment',
    'lesson.beforeMoments': 'Start',
    'lesson.momentNow': 'now',

    'side.client': 'client',
    'side.service': 'service',
    'side.network': 'network',
    'side.provider': 'mail provider',
    'side.none': '—',
    'side.observer': 'truth (observer)',

    'diagram.title': 'Space-time diagram',
    'diagram.desc': 'Three lanes: client, network, service; time flows down. Only what has happened up to the current step is shown.',
    'diagram.commit': 'commit',
    'diagram.crash': 'crash',
    'diagram.restart': 'restart',
    'diagram.timeout': 'timeout',
    'diagram.lost': 'lost',
    'diagram.reject': 'rejected',
    'diagram.replay': 'replayed',
    'diagram.register': 'key stored',
    'diagram.inProgress': 'in progress',
    'diagram.expire': 'expired',
    'diagram.notify': 'emails directly',
    'diagram.relay': 'relay sends',
    'diagram.markSent': 'marked sent',
    'diagram.acceptEmail': 'in the inbox',
    'diagram.dedupEmail': 'deduplicated',
    'diagram.descMail': 'Four lanes: client, network, service, mail provider; time flows down. Only what has happened up to the current step is shown.',
    'diagram.inFlight': 'in flight',
    'msg.request': 'request',
    'msg.response': 'response',
    'msg.lookup': 'lookup',
    'msg.lookup_reply': 'lookup reply',
    'msg.email': 'email',
    'msg.email_ack': 'email ack',
    'msg.send': 'send {n}',
    'msg.attempt': 'attempt {n}',

    'panel.alive': 'alive',
    'panel.crashed': 'crashed',
    'panel.status': 'Status',
    'panel.intents': 'intents (its own database, durable)',
    'panel.keys': 'idempotency_keys (dedup records, the service database, durable)',
    'panel.deliveries': 'deliveries (one row per effect, durable)',
    'panel.inProgress': 'processing key {op_key}, commits at t={until}ms',
    'panel.noInProgress': 'not processing any request',
    'panel.outbox': 'outbox (the notification emails owed, written in the effect’s transaction, durable)',
    'panel.relayWaiting': 'the relay waits for the ack of email {email_key} (send {send}), until t={deadline}ms',
    'panel.emails': 'inbox (the notification emails the provider has delivered)',
    'panel.volatile': 'Memory (lost on crash)',
    'panel.waiting': 'waiting for the {what} of {intent} attempt {attempt}, until t={deadline}ms',
    'panel.noWaiting': 'not waiting for anything',
    'panel.noRows': '(empty)',
    'panel.changed': 'changed at this step',
    'panel.inFlight': 'in flight',
    'panel.delivered': 'delivered',
    'panel.dropped': 'dropped',
    'panel.none': 'none',
    'col.id': 'id',
    'col.intent': 'intent',
    'col.op_key': 'operation key',
    'col.fingerprint': 'payload fingerprint',
    'col.status': 'status',
    'col.receipt': 'receipt',
    'col.attempts': 'attempts',
    'col.created_at': 'created at',
    'col.email_key': 'email key',
    'col.received_at': 'received at',
    'value.null': 'none',

    'grid.title': 'What each side knows',
    'grid.fact': 'Fact',
    'grid.knowsTrue': 'knows true',
    'grid.knowsFalse': 'knows false',
    'grid.knowsN': 'knows: {n}',
    'grid.cannotKnow': 'cannot know',
    'grid.hidden': 'shown after you answer',
    'grid.hiddenLabel': 'This cell would give the answer away; it is shown after you answer',
    'grid.witness': 'Witness: {text}',
    'grid.witnessRun': 'run {world} ({world_text}), step {step}',
    'grid.witnessThisRun': 'this very run, step {step}',
    'worlds.summary': 'Fault space: the {n} runs the engine compares',
    'worlds.note': 'A side knows a fact when it holds in every run that side cannot tell apart from this one.',
    'grid.witnessHint': 'Hover over or Tab to a “cannot know” cell to see the run that keeps it in doubt.',
    'grid.truthValue': '{v}',
    'truth.toggle': 'Show the truth (observer)',
    'truth.hiddenNote': 'Truth hidden: reason from what each side sees first.',
    'truth.gated': 'A question is not answered yet, so the truth is hidden for now (it would give the answer away).',
    'truth.title': 'Truth',
    'truth.effects': 'effects in total: {n}',
    'truth.byKey': '{key} × {n}',
    'truth.emails': 'notification emails in the inbox: {n}',
    // One line per invariant (engine/invariants/): held, or broken (then the engine's reason).
    'inv.duplicate_effect.ok': 'no duplicate effect',
    'inv.duplicate_effect.broken': 'duplicate effect',
    'inv.false_success.ok': 'no false success: every success the client records has an effect of its content',
    'inv.false_success.broken': 'false success',
    'inv.false_failure.ok': 'no false failure',
    'inv.false_failure.broken': 'false failure',
    'inv.forgotten_intent.ok': 'no forgotten intent',
    'inv.forgotten_intent.broken': 'forgotten intent',
    'inv.lost_notification.ok': 'no lost notification email',
    'inv.lost_notification.broken': 'lost notification email',
    'inv.duplicate_notification.ok': 'no duplicate email',
    'inv.duplicate_notification.broken': 'the same delivery was emailed twice',
    'bool.true': 'true',
    'bool.false': 'false',

    'q.kind.knowledge': 'Knowledge',
    'q.kind.predict': 'Predict',
    'q.kind.choose': 'Next step',
    'q.choose.heading': 'Each option, in every run the client cannot tell apart at this moment:',
    'q.choose.safe': 'Safe',
    'q.choose.unsafe': 'Unsafe',
    'q.choose.runs': 'Run by run ({n} runs)',
    'q.choose.run': '{run}: {effects} effect(s), client status {status}',
    'q.choose.problem.duplicate_effect': 'a duplicate effect',
    'q.choose.problem.false_success': 'a false success: the client believes it done, and no effect of that content exists',
    'q.choose.problem.false_failure': 'a false failure: the client believes it not done, and it was',
    'q.choose.problem.forgotten_intent': 'a forgotten intent: the effect exists and the client does not know',
    'q.choose.problem.lost_notification': 'a lost notification email',
    'q.choose.problem.duplicate_notification': 'a duplicate notification email',
    'q.kind.table': 'Moment table',
    'q.kind.concept': 'Concept',
    'q.heading': 'Question',
    'q.side': 'Side: {side}',
    'q.fact': 'Fact: {fact}',
    'q.ans.knows_true': 'knows true',
    'q.ans.knows_false': 'knows false',
    'q.ans.cannot_know': 'cannot know',
    'q.ans.choose': 'choose',
    'q.check': 'Check answer',
    'q.fillAll': 'Choose every cell before checking.',
    'q.checking': 'Asking the engine to check…',
    'q.right': 'Right',
    'q.wrong': 'Not right',
    'q.try': 'Try {n}',
    'q.yours': 'Your answer: {a}',
    'q.expected': 'Expected: {a}',
    'q.why': 'Why: ',
    'q.retry': 'You can try again.',
    'q.rightFirstTry': 'Right at the first try.',
    'q.rightAtTry': 'Right at try {n} (after a wrong answer).',
    'q.cellRight': 'right',
    'q.cellWrong': 'wrong, expected: {a}',
    'q.tableCell': '{moment} · {side} · {fact}',
    'q.cellsRight': '{n} of {total} cells right',
    'q.unanswered': 'There is a question at this step: answer it to see what happens next.',
    'q.unansweredLast': 'Answer this question to complete the lesson.',

    'timeline.title': 'Text timeline',
    'timeline.line': 't={t}ms · {side} · {text}',
    'timeline.hiddenRest': '{n} more steps, shown when you get there.',

    'tabs.label': 'Views of this lesson',
    'tabs.lesson': 'Step by step',
    'tabs.compare': 'Side by side',
    'compare.open': 'Side by side',
    'compare.title': 'Side by side',
    'compare.caption': 'One fault plan ({faults}) handed to two policies, stepped together by virtual time. Each counter is the number of effects the service holds for “{intent}”, as the engine computes it.',
    'compare.spoiler': 'This view shows how both runs end. {n} questions of this lesson are still open: answer them first if you want to predict before you see.',
    'compare.controls': 'Side-by-side controls',
    'compare.first': 'Go to the start',
    'compare.prev': 'Previous moment in time',
    'compare.next': 'Next moment in time',
    'compare.last': 'Go to the end',
    'compare.scrubber': 'Virtual time',
    'compare.keys': 'Keys: ← → step both runs together, Home / End jump to start / end',
    'compare.timeOf': 't={t}ms · time {i} of {n}',
    'compare.events': 'Events of {name}',
    'compare.effects': 'effects for “{intent}”',
    'compare.status': 'Client status:',
    'compare.noStatus': 'not decided yet',
    'compare.sideSummary': '{name}: {n} effects, client {status}.',

    'self.title': 'Self-check',
    'self.note': 'Not graded; for you to tick off. Ticks are saved.',

    'announce.step': 'Step {i}: {line}',
  },
};
for (const lang of LANGS) Object.assign(STRINGS[lang], SANDBOX_STRINGS[lang]);

let current = detectInitial();
const listeners = new Set();

function detectInitial() {
  // The address's ?lang= (a course page embedding the page picks it) before the saved choice.
  try {
    const asked = new URLSearchParams(window.location.search).get('lang');
    if (LANGS.includes(asked)) return asked;
  } catch (_) {
    /* no query to read */
  }
  try {
    const saved = window.localStorage.getItem(LANG_KEY);
    if (LANGS.includes(saved)) return saved;
  } catch (_) {
    /* storage unavailable: use the default */
  }
  return 'zh-CN';
}

export function getLang() {
  return current;
}

export function setLang(lang) {
  if (!LANGS.includes(lang) || lang === current) return;
  current = lang;
  try {
    window.localStorage.setItem(LANG_KEY, lang);
  } catch (_) {
    /* not remembered, still switched */
  }
  document.documentElement.lang = lang;
  for (const fn of listeners) fn(lang);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** A UI string, with {name} placeholders filled from params. */
export function t(key, params) {
  const table = STRINGS[current] || STRINGS.en;
  let text = table[key];
  if (text === undefined) text = STRINGS.en[key];
  if (text === undefined) return key;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  }
  return text;
}

/** Pick the current language from an engine L10n object. */
export function l(obj) {
  if (obj === null || obj === undefined) return '';
  if (typeof obj === 'string') return obj;
  if (typeof obj !== 'object') return String(obj);
  if (typeof obj[current] === 'string') return obj[current];
  for (const lang of LANGS) if (typeof obj[lang] === 'string') return obj[lang];
  return '';
}

export function sideName(side) {
  return t(`side.${side}`);
}

/** For tests: every key present in both languages. */
export function missingKeys() {
  const out = [];
  for (const a of LANGS) for (const b of LANGS) {
    for (const k of Object.keys(STRINGS[a])) if (!(k in STRINGS[b])) out.push(`${b}:${k}`);
  }
  return out;
}
